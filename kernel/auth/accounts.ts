import type { AuthUser } from './principal.js';
import type { KnownToken } from './token-cache.js';

/** A permission as granted to a user or one of their groups: models × actions, narrowed by constraints. */
export interface Grant {
  object_types: string[];
  actions: string[];
  constraints: unknown;
}

/**
 * What authentication reads and writes of users, tokens, sessions and permissions. The kernel judges (token rules,
 * cookies, constraints); the app that stores accounts (the users plugin) provides this service by token
 * (`Services.accounts`), so the kernel names none of its models or tables.
 */
export interface Accounts {
  /** Models whose committed writes make the credentials this process keeps stale (a token or a user changed). */
  readonly models: readonly string[];
  /** The token whose key has this digest, with its user, and the database's clock (ms) as it read them. */
  token(digest: string): Promise<{ token: KnownToken; now: number } | undefined>;
  /** Records that a token was used now. */
  touchToken(id: number): Promise<void>;
  /** The active user with this username and password; undefined for any mistake, taking as long either way. */
  login(username: string, password: string): Promise<AuthUser | undefined>;
  /** Stores a session (by the digest of its key) that ends `ageSeconds` from now, and the user's last login. */
  startSession(userId: number, digest: string, csrfToken: string, ageSeconds: number): Promise<void>;
  /** The user and CSRF token of a live session, by the digest of its key. */
  session(digest: string): Promise<{ user: AuthUser; csrfToken: string } | undefined>;
  endSession(digest: string): Promise<void>;
  /** Deletes the sessions that ended; returns how many. */
  clearExpiredSessions(): Promise<number>;
  /** The enabled permissions given to the user or to one of their groups. */
  grants(userId: number): Promise<Grant[]>;
}
