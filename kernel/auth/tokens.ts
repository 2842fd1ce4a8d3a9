import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { Settings } from '../config/settings.js';
import { HttpError } from '../base/errors.js';
import { clientIp, contains, prefixSet } from './client-ip.js';
import type { Accounts } from './accounts.js';
import type { Principal } from './principal.js';
import type { TokenCache } from './token-cache.js';

/** SHA-256 of a token key: what lookups compare, so that the key itself is never compared by the database. */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const refuse = (detail: string) => new HttpError(403, { detail });

/** How often a token's `last_used` is written, at most. */
const LAST_USED_INTERVAL_S = 60;

/**
 * Authenticates `Authorization: Token <key>` as NetBox 4.4 does, refusing with its messages (always 403).
 * Nothing is written for a refused token; `last_used` moves at most once a minute, never in maintenance mode. A token
 * this process authenticated a moment ago is judged as it was read then (`TokenCache`).
 */
export async function tokenPrincipal(header: string, req: Request, accounts: Accounts, settings: Settings, cache: TokenCache): Promise<Principal> {
  const parts = header.trim().split(/\s+/);
  if (parts.length === 1) throw refuse('Invalid token header. No credentials provided.');
  if (parts.length > 2) throw refuse('Invalid token header. Token string should not contain spaces.');
  const key = parts[1];
  if (!/^[\x20-\x7e]+$/.test(key)) throw refuse('Invalid token header. Token string should not contain invalid characters.');

  const digest = keyDigest(key.toLowerCase());
  let token = cache.get(digest);
  let now = cache.now();
  if (!token) {
    const read = await accounts.token(digest);
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
    await accounts.touchToken(token.id);
    token.lastUsed = now;
  }
  return { user: { ...token.user }, via: 'token', writeEnabled: token.writeEnabled };
}
