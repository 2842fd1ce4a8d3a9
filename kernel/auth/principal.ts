/** The user a request acts for. */
export interface AuthUser {
  id: number;
  username: string;
  is_superuser: boolean;
  is_staff: boolean;
  is_active: boolean;
}

/** Who a request acts for and how it proved it. */
export interface Principal {
  user: AuthUser | null;
  via: 'anonymous' | 'token' | 'session';
  /** The token's `write_enabled`, when authenticated by token. */
  writeEnabled: boolean;
  /** The session's CSRF token, when authenticated by cookie. */
  csrfToken?: string;
}

export const ANONYMOUS: Principal = { user: null, via: 'anonymous', writeEnabled: false };
