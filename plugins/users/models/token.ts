import { isIP } from 'node:net';
import { defineModel, f, ValidationError } from 'patchbay';
import { TokenKeyField } from '../fields.js';
import { authorizeToken } from './token-authorize.js';

/** An IPv4 or IPv6 address or prefix, as PostgreSQL's inet reads it. */
function ipPrefix(value: unknown): string {
  if (typeof value === 'string') {
    const [address, length, ...rest] = value.trim().split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (family && !rest.length && (length === undefined || (/^\d+$/.test(length) && Number(length) <= max))) {
      return length === undefined ? `${address}/${max}` : `${address}/${length}`;
    }
  }
  throw `Enter a valid IPv4 or IPv6 prefix: ${String(value)}`;
}

export const Token = defineModel('users.token', {
  path: 'tokens',
  verboseName: 'token',
  // Keys are secrets: tokens stay out of GraphQL, as in NetBox.
  graphql: false,
  fields: {
    user: f.fk('users.user', { onDelete: 'cascade' }),
    expires: f.datetime({ nullable: true }),
    last_used: f.datetime({ nullable: true }),
    key: new TokenKeyField(),
    write_enabled: f.boolean({ default: true, helpText: 'Permit create/update/delete operations using this key' }),
    description: f.string({ max: 200, blank: true }),
    allowed_ips: f.list({ sqlType: 'inet[]', nullable: true, item: ipPrefix, helpText: 'Allowed IPv4/IPv6 networks; empty means any.' }),
  },
  brief: ['key', 'write_enabled', 'description'],
  features: ['changelog'],
  ordering: ['-created'],
  search: ['description', 'user'],
  display: (row) => `${'*'.repeat(34)}${String(row.key).slice(-6)}`,
  authorize: authorizeToken,
  validate: (row, ctx) => {
    const expiresChanged = ctx.instance === undefined || row.expires !== ctx.instance.expires;
    if (row.expires && expiresChanged && Date.parse(row.expires as string) <= Date.now()) {
      const now = new Date().toISOString().replace('T', ' ').slice(0, 19);
      throw new ValidationError({ expires: [`Expiration time must be in the future. Current server time is ${now} (UTC).`] });
    }
  },
});
