/** Who a request acts for. Authentication (tokens, sessions) fills this in; until then every request is anonymous. */
export interface Principal {
  userId: number | null;
  username: string;
}

export const ANONYMOUS: Principal = { userId: null, username: '' };
