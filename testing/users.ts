import { randomBytes } from 'node:crypto';
import type { Row } from 'patchbay';
import { keyDigest } from '../kernel/index.js';
import type { PatchbayServer } from '../kernel/server.js';
import { hashPassword } from '../plugins/users/password.js';

export interface TestUser {
  id: number;
  username: string;
  password: string;
  /** A token of the user's (v1, 40 hex digits), already counted as used. */
  token: string;
}

export interface UserOptions {
  superuser?: boolean;
  active?: boolean;
  /** Columns of the user's token (`write_enabled: false`, `expires`, `allowed_ips`). */
  tokenFields?: Row;
}

const PASSWORD = 'correct horse battery';
let passwordHash: Promise<string> | undefined;

/** A user and a token written straight into the database (its password hashed once per process). */
export async function insertUser(server: PatchbayServer, username: string, options: UserOptions = {}): Promise<TestUser> {
  passwordHash ??= hashPassword(PASSWORD);
  const db = server.db.knex;
  const superuser = !!options.superuser;
  const [user] = await db('users_user')
    .insert({ username, password: await passwordHash, is_superuser: superuser, is_staff: superuser, is_active: options.active ?? true, created: db.fn.now(), last_updated: db.fn.now() })
    .returning('id');
  const token = randomBytes(20).toString('hex');
  await db('users_token').insert({ user_id: user.id, key: token, key_digest: keyDigest(token), last_used: db.fn.now(), created: db.fn.now(), last_updated: db.fn.now(), ...options.tokenFields });
  return { id: user.id, username, password: PASSWORD, token };
}
