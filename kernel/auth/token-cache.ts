/** A token as authentication judges it; times in milliseconds on the database's clock. */
export interface KnownToken {
  id: number;
  keyDigest: string;
  writeEnabled: boolean;
  allowedIps: string[] | null;
  user: { id: number; username: string; is_active: boolean; is_superuser: boolean; is_staff: boolean };
  expires: number | null;
  lastUsed: number | null;
}

/** Tokens kept at most, so that many clients cannot grow it without bound (the oldest go first). */
const MAX_TOKENS = 10_000;

/**
 * The tokens this process authenticated in the last TOKEN_CACHE_SECONDS, by key digest: a request with one of them
 * runs no SQL to authenticate. Expiry and `last_used` are judged on the database's clock, as read with each token.
 * Any change to a token or a user through Patchbay empties it: in this process when the write commits, in the others
 * when PostgreSQL delivers the commit's notice (the model watch). A change made in SQL by hand is seen within
 * TOKEN_CACHE_SECONDS. 0 turns it off.
 */
export class TokenCache {
  private readonly tokens = new Map<string, { token: KnownToken; until: number }>();
  /** The database's clock minus this process's, as last read. */
  private skew = 0;

  constructor(private readonly seconds: number) {}

  get(digest: string): KnownToken | undefined {
    const kept = this.tokens.get(digest);
    if (kept && kept.until > Date.now()) return kept.token;
    this.tokens.delete(digest);
    return undefined;
  }

  /** Keeps `token`, read when the database's clock read `databaseNow`. */
  keep(digest: string, token: KnownToken, databaseNow: number): void {
    this.skew = databaseNow - Date.now();
    if (this.seconds <= 0) return;
    if (this.tokens.size >= MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(digest, { token, until: Date.now() + this.seconds * 1000 });
  }

  /** The database's clock now, as this process reckons it. */
  now(): number {
    return Date.now() + this.skew;
  }

  clear(): void {
    this.tokens.clear();
  }
}
