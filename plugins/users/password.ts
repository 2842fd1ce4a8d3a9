import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 2 ** 15, r: 8, p: 1, keylen: 32 };

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keylen: number): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 128 * N * r * 2 };
  return new Promise((ok, fail) => scrypt(password, salt, keylen, options, (err, key) => (err ? fail(err) : ok(key))));
}

/** A slow salted hash: `scrypt$N$r$p$<salt>$<hash>` (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p, keylen } = PARAMS;
  const hash = await derive(password, salt, N, r, p, keylen);
  return ['scrypt', N, r, p, salt.toString('base64'), hash.toString('base64')].join('$');
}

// Verifying against this when the user does not exist takes as long as a real check.
const DECOY = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** Whether `password` matches `encoded` (or the decoy when there is no user), compared in constant time. */
export async function verifyPassword(password: string, encoded: string | null | undefined): Promise<boolean> {
  const parts = (encoded || DECOY).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, N, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(N), Number(r), Number(p), expected.length);
  return timingSafeEqual(actual, expected) && !!encoded;
}

/** NetBox's default rule: at least 12 characters, not all digits. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < 12) return 'This password is too short. It must contain at least 12 characters.';
  if (/^\d+$/.test(password)) return 'This password is entirely numeric.';
  return undefined;
}
