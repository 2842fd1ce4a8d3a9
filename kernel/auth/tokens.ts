import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { Settings } from '../config/settings.js';
import { HttpError } from '../errors.js';
import type { Db } from '../model/types.js';
import { clientIp, contains, prefixSet } from './client-ip.js';
import { keyDigest } from './fields.js';
import type { Principal } from './principal.js';
import type { KnownToken, TokenCache } from './token-cache.js';

const refuse = (detail: string) => new HttpError(403, { detail });

/** How often a token's `last_used` is written, at most. */
const LAST_USED_INTERVAL_S = 60;

interface TokenRow {
  id: number;
  key_digest: string;
  write_enabled: boolean;
  allowed_ips: string[] | null;
  user_id: number;
  username: string;
  is_active: boolean;
  is_superuser: boolean;
  is_staff: boolean;
  /** Milliseconds since the epoch, as PostgreSQL's `extract` gives them (text). */
  expires: string | null;
  last_used: string | null;
  now: string;
}

/** The token of `digest` with its user, and the database's clock as it read them; undefined when there is none. */
async function readToken(db: Db, digest: string): Promise<{ token: KnownToken; now: number } | undefined> {
  const row = (await db('users_token as k')
    .join('users_user as u', 'u.id', 'k.user_id')
    .select('k.id', 'k.key_digest', 'k.write_enabled', 'k.allowed_ips', 'k.user_id', 'u.username', 'u.is_active', 'u.is_superuser', 'u.is_staff')
    .select(db.raw('extract(epoch from k.expires) * 1000 as expires, extract(epoch from k.last_used) * 1000 as last_used, extract(epoch from now()) * 1000 as now'))
    .where('k.key_digest', digest)
    .first()) as TokenRow | undefined;
  if (!row) return undefined;
  const token: KnownToken = {
    id: row.id, keyDigest: row.key_digest, writeEnabled: row.write_enabled, allowedIps: row.allowed_ips,
    user: { id: row.user_id, username: row.username, is_active: row.is_active, is_superuser: row.is_superuser, is_staff: row.is_staff },
    expires: row.expires === null ? null : Number(row.expires),
    lastUsed: row.last_used === null ? null : Number(row.last_used),
  };
  return { token, now: Number(row.now) };
}

/**
 * Authenticates `Authorization: Token <key>` as NetBox 4.4 does, refusing with its messages (always 403).
 * Nothing is written for a refused token; `last_used` moves at most once a minute, never in maintenance mode. A token
 * this process authenticated a moment ago is judged as it was read then (`TokenCache`).
 */
export async function tokenPrincipal(header: string, req: Request, db: Db, settings: Settings, cache: TokenCache): Promise<Principal> {
  const parts = header.trim().split(/\s+/);
  if (parts.length === 1) throw refuse('Invalid token header. No credentials provided.');
  if (parts.length > 2) throw refuse('Invalid token header. Token string should not contain spaces.');
  const key = parts[1];
  if (!/^[\x20-\x7e]+$/.test(key)) throw refuse('Invalid token header. Token string should not contain invalid characters.');

  const digest = keyDigest(key.toLowerCase());
  let token = cache.get(digest);
  let now = cache.now();
  if (!token) {
    const read = await readToken(db, digest);
    if (read) {
      ({ token, now } = read);
      cache.keep(digest, token, now);
    }
  }
  if (!token || !timingSafeEqual(Buffer.from(token.keyDigest), Buffer.from(digest))) throw refuse('Invalid token');
  if (token.expires !== null && token.expires <= now) throw refuse('Token expired');
  if (!token.user.is_active) throw refuse('User inactive');
  if (token.allowedIps?.length) {
    const ip = clientIp(req, prefixSet(settings.TRUSTED_PROXIES));
    if (!ip) {
      throw refuse('Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).');
    }
    if (!contains(prefixSet(token.allowedIps), ip)) throw refuse(`Source IP ${ip} is not permitted to authenticate using this token.`);
  }
  if ((token.lastUsed === null || token.lastUsed < now - LAST_USED_INTERVAL_S * 1000) && !settings.MAINTENANCE_MODE) {
    await db('users_token').where('id', token.id).update({ last_used: db.fn.now() });
    token.lastUsed = now;
  }
  return { user: { ...token.user }, via: 'token', writeEnabled: token.writeEnabled };
}
