import type { Accounts, AuthUser, Db, Grant, KnownToken } from 'patchbay';
import { verifyPassword } from './password.js';

/** A token's row as authentication reads it; times in ms since the epoch as PostgreSQL's `extract` gives them (text). */
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
  expires: string | null;
  last_used: string | null;
  now: string;
}

const USER_COLUMNS = ['u.id', 'u.username', 'u.is_superuser', 'u.is_staff', 'u.is_active'];

/** The kernel's accounts service on this app's tables: what authentication reads of users, tokens, sessions and permissions. */
export function storedAccounts(db: Db): Accounts {
  return {
    models: ['users.token', 'users.user'],

    async token(digest) {
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
    },

    async touchToken(id) {
      await db('users_token').where('id', id).update({ last_used: db.fn.now() });
    },

    async login(username, password) {
      const row = (await db('users_user as u').select(...USER_COLUMNS, 'u.password').where('u.username', username).first()) as
        | (AuthUser & { password: string })
        | undefined;
      // Verified even without a user, so that a wrong username takes as long as a wrong password.
      const valid = await verifyPassword(password, row?.password);
      if (!row || !valid || !row.is_active) return undefined;
      const { password: _hash, ...user } = row;
      return user;
    },

    async startSession(userId, digest, csrfToken, ageSeconds) {
      await db('users_session').insert({ key_digest: digest, user_id: userId, csrf_token: csrfToken, expires: db.raw(`now() + make_interval(secs => ?)`, [ageSeconds]) });
      await db('users_user').where('id', userId).update({ last_login: db.fn.now() });
    },

    async session(digest) {
      const row = (await db('users_session as s')
        .join('users_user as u', 'u.id', 's.user_id')
        .select('s.csrf_token', ...USER_COLUMNS)
        .where('s.key_digest', digest)
        .where('s.expires', '>', db.fn.now())
        .first()) as (AuthUser & { csrf_token: string }) | undefined;
      if (!row) return undefined;
      const { csrf_token, ...user } = row;
      return { user, csrfToken: csrf_token };
    },

    async endSession(digest) {
      await db('users_session').where('key_digest', digest).delete();
    },

    clearExpiredSessions: () => db('users_session').where('expires', '<=', db.fn.now()).delete(),

    grants: (userId) =>
      db('users_objectpermission as p')
        .select('p.object_types', 'p.actions', 'p.constraints')
        .where('p.enabled', true)
        .where((q) =>
          q
            .whereIn('p.id', db('users_objectpermission_users').select('objectpermission_id').where('user_id', userId))
            .orWhereIn('p.id', db('users_objectpermission_groups').select('objectpermission_id').whereIn('group_id', db('users_user_groups').select('group_id').where('user_id', userId))),
        ) as Promise<Grant[]>,
  };
}
