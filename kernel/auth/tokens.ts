import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { Settings } from '../config/settings.js';
import { HttpError } from '../errors.js';
import type { Db } from '../model/types.js';
import { clientIp, contains, prefixSet } from './client-ip.js';
import { keyDigest } from './fields.js';
import type { Principal } from './principal.js';

const refuse = (detail: string) => new HttpError(403, { detail });

/** How often a token's `last_used` is written, at most. */
const LAST_USED_INTERVAL_S = 60;

interface TokenRow {
  id: number;
  key_digest: string;
  expired: boolean;
  stale: boolean;
  write_enabled: boolean;
  allowed_ips: string[] | null;
  user_id: number;
  username: string;
  is_active: boolean;
  is_superuser: boolean;
  is_staff: boolean;
}

/**
 * Authenticates `Authorization: Token <key>` as NetBox 4.4 does, refusing with its messages (always 403).
 * Nothing is written for a refused token; `last_used` moves at most once a minute, never in maintenance mode.
 */
export async function tokenPrincipal(header: string, req: Request, db: Db, settings: Settings): Promise<Principal> {
  const parts = header.trim().split(/\s+/);
  if (parts.length === 1) throw refuse('Invalid token header. No credentials provided.');
  if (parts.length > 2) throw refuse('Invalid token header. Token string should not contain spaces.');
  const key = parts[1];
  if (!/^[\x20-\x7e]+$/.test(key)) throw refuse('Invalid token header. Token string should not contain invalid characters.');

  const digest = keyDigest(key.toLowerCase());
  const row = (await db('users_token as k')
    .join('users_user as u', 'u.id', 'k.user_id')
    .select('k.id', 'k.key_digest', 'k.write_enabled', 'k.allowed_ips', 'k.user_id', 'u.username', 'u.is_active', 'u.is_superuser', 'u.is_staff')
    .select(db.raw('coalesce(k.expires <= now(), false) as expired'))
    .select(db.raw(`(k.last_used is null or k.last_used < now() - make_interval(secs => ?)) as stale`, [LAST_USED_INTERVAL_S]))
    .where('k.key_digest', digest)
    .first()) as TokenRow | undefined;
  if (!row || !timingSafeEqual(Buffer.from(row.key_digest), Buffer.from(digest))) throw refuse('Invalid token');
  if (row.expired) throw refuse('Token expired');
  if (!row.is_active) throw refuse('User inactive');
  if (row.allowed_ips?.length) {
    const ip = clientIp(req, prefixSet(settings.TRUSTED_PROXIES));
    if (!ip) {
      throw refuse('Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).');
    }
    if (!contains(prefixSet(row.allowed_ips), ip)) throw refuse(`Source IP ${ip} is not permitted to authenticate using this token.`);
  }
  if (row.stale && !settings.MAINTENANCE_MODE) {
    await db('users_token').where('id', row.id).update({ last_used: db.fn.now() });
  }
  return {
    user: { id: row.user_id, username: row.username, is_superuser: row.is_superuser, is_staff: row.is_staff, is_active: row.is_active },
    via: 'token',
    writeEnabled: row.write_enabled,
  };
}
