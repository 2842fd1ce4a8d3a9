import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';

beforeAll(async () => {
  t = await startServer({ settings: { TRUSTED_PROXIES: ['127.0.0.1/32'], TOKEN_CACHE_SECONDS: 5 } });
});
afterAll(async () => {
  await t?.close();
});

const lastUsed = async (token: string) =>
  (await t.server.db.knex('users_token').where('key', token).first('last_used')).last_used as string | null;

describe('token authentication refusals', () => {
  it('refuses missing, malformed and unknown credentials with 403 and NetBox messages', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'Authentication credentials were not provided.'],
      [{ Authorization: 'Token' }, 'Invalid token header. No credentials provided.'],
      [{ Authorization: 'Token abc def' }, 'Invalid token header. Token string should not contain spaces.'],
      [{ Authorization: `Token ${'0'.repeat(40)}` }, 'Invalid token'],
      [{ Authorization: 'Bearer whatever' }, 'Authentication credentials were not provided.'],
    ];
    for (const [headers, detail] of cases) {
      const res = await t.get(TENANTS, { token: null, headers });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail });
    }
    expect((await t.get(TENANTS, { token: null, headers: { Authorization: `token ${t.admin.token}` } })).status).toBe(200);
  });

  it('refuses an expired token and the token of an inactive user, writing nothing', async () => {
    const expired = await t.createUser('expired', { superuser: true, tokenFields: { expires: t.server.db.knex.raw("now() - interval '1 minute'"), last_used: null } });
    const res = await t.get(TENANTS, { token: expired.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Token expired' });
    expect(await lastUsed(expired.token)).toBeNull();
    const inactive = await t.createUser('inactive', { superuser: true, active: false });
    expect((await t.get(TENANTS, { token: inactive.token })).body).toEqual({ detail: 'User inactive' });
  });

  it('accepts a client inside allowed_ips and refuses one outside, for IPv4 and IPv6', async () => {
    const v4 = await t.createUser('v4', { superuser: true, tokenFields: { allowed_ips: ['127.0.0.0/8'] } });
    expect((await t.get(TENANTS, { token: v4.token })).status).toBe(200);
    const elsewhere = await t.createUser('elsewhere', { superuser: true, tokenFields: { allowed_ips: ['10.0.0.0/8', '2001:db8::/32'] } });
    const refused = await t.get(TENANTS, { token: elsewhere.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Source IP 127.0.0.1 is not permitted to authenticate using this token.' });
    // The peer (127.0.0.1) is a trusted proxy, so X-Forwarded-For names the client.
    expect((await t.get(TENANTS, { token: elsewhere.token, headers: { 'X-Forwarded-For': '2001:db8::5' } })).status).toBe(200);
    expect((await t.get(TENANTS, { token: elsewhere.token, headers: { 'X-Forwarded-For': '10.9.8.7, 127.0.0.1' } })).status).toBe(200);
    const v6 = await t.get(TENANTS, { token: elsewhere.token, headers: { 'X-Forwarded-For': '2001:db9::5' } });
    expect(v6.body).toEqual({ detail: 'Source IP 2001:db9::5 is not permitted to authenticate using this token.' });
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const plain = await startServer();
    try {
      const user = await plain.createUser('proxied', { superuser: true, tokenFields: { allowed_ips: ['10.0.0.0/8'] } });
      const res = await plain.get(TENANTS, { token: user.token, headers: { 'X-Forwarded-For': '10.1.1.1' } });
      expect(res.body).toEqual({ detail: 'Source IP 127.0.0.1 is not permitted to authenticate using this token.' });
    } finally {
      await plain.close();
    }
  });

  it('lets a read-only token read but refuses its writes, writing nothing', async () => {
    const reader = await t.createUser('reader', { superuser: true, tokenFields: { write_enabled: false } });
    expect((await t.get(TENANTS, { token: reader.token })).status).toBe(200);
    expect((await t.request('OPTIONS', TENANTS, { token: reader.token })).status).toBe(200);
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const res = await t.request(method, TENANTS, { token: reader.token, body: method === 'POST' ? { name: 'RO', slug: 'ro' } : [] });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    }
    expect((await t.get(`${TENANTS}?limit=0`)).body.count).toBe(0);
  });
});

describe('last_used', () => {
  it('moves at most once in 60 seconds, judged by the stored time once the cached token is read again', async () => {
    // A token is read again after TOKEN_CACHE_SECONDS: the changes made here in SQL apply from then on.
    const short = await startServer({ settings: { TOKEN_CACHE_SECONDS: 1 } });
    const stored = async (token: string) => (await short.server.db.knex('users_token').where('key', token).first('last_used')).last_used as string;
    const asDate = (text: string) => Date.parse(text.replace(' ', 'T').replace(/\+00$/, 'Z'));
    const afterTheCache = () => new Promise((resolve) => setTimeout(resolve, 1_100));
    try {
      const user = await short.createUser('clock', { superuser: true, tokenFields: { last_used: null } });
      const db = short.server.db.knex;
      await short.get(TENANTS, { token: user.token });
      expect(await stored(user.token)).not.toBeNull();
      await db('users_token').where('key', user.token).update({ last_used: db.raw("now() - interval '30 seconds'") });
      const recent = await stored(user.token);
      await afterTheCache();
      await short.get(TENANTS, { token: user.token });
      expect(await stored(user.token)).toBe(recent);
      await db('users_token').where('key', user.token).update({ last_used: db.raw("now() - interval '61 seconds'") });
      const stale = await stored(user.token);
      await afterTheCache();
      await short.get(TENANTS, { token: user.token });
      expect(asDate(await stored(user.token))).toBeGreaterThan(asDate(stale));
    } finally {
      await short.close();
    }
  });

  it('never moves in maintenance mode, where writes are refused', async () => {
    const frozen = await startServer({ settings: { MAINTENANCE_MODE: true } });
    try {
      const user = await frozen.createUser('frozen', { superuser: true, tokenFields: { last_used: null } });
      expect((await frozen.get(TENANTS, { token: user.token })).status).toBe(200);
      const row = await frozen.server.db.knex('users_token').where('key', user.token).first('last_used');
      expect(row.last_used).toBeNull();
      const write = await frozen.post(TENANTS, { name: 'M', slug: 'm' }, { token: user.token });
      expect(write.status).toBe(503);
      expect(write.body.detail).toMatch(/maintenance mode/);
    } finally {
      await frozen.close();
    }
  });
});

describe('behind a proxy', () => {
  it('takes the scheme from X-Forwarded-Proto only when the peer is a trusted proxy', async () => {
    const { body: tenant } = await t.post(TENANTS, { name: 'Proxied', slug: 'proxied' });
    const forwarded = await t.get(`${TENANTS}${tenant.id}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(forwarded.body.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/tenancy\/tenants\/\d+\/$/);
    const untrusted = await startServer({ joining: t });
    try {
      const direct = await untrusted.get(`${TENANTS}${tenant.id}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(direct.body.url).toMatch(/^http:\/\//);
    } finally {
      await untrusted.close();
    }
  });
});

describe('token cache', () => {
  it('authenticates a token it read a moment ago without SQL, and reads it again once it or its user changed', async () => {
    const user = await t.createUser('cached', { superuser: true });
    expect((await t.get(TENANTS, { token: user.token })).status).toBe(200);
    expect(await t.countQueries(async () => expect((await t.get(`${TENANTS}?limit=1&brief=1`, { token: user.token })).status).toBe(200))).toBe(1);
    const [token] = (await t.get(`/api/users/tokens/?user_id=${user.id}`)).body.results as { id: number }[];
    // Through the API, a change applies to the next request: read-only now, then inactive, then gone.
    expect((await t.request('PATCH', `/api/users/tokens/${token.id}/`, { body: { write_enabled: false } })).status).toBe(200);
    expect((await t.post(TENANTS, { name: 'Cached', slug: 'cached' }, { token: user.token })).status).toBe(403);
    expect((await t.request('PATCH', `/api/users/users/${user.id}/`, { body: { is_active: false } })).status).toBe(200);
    expect((await t.get(TENANTS, { token: user.token })).body).toEqual({ detail: 'User inactive' });
    expect((await t.request('PATCH', `/api/users/users/${user.id}/`, { body: { is_active: true } })).status).toBe(200);
    expect((await t.get(TENANTS, { token: user.token })).status).toBe(200);
    expect((await t.request('DELETE', `/api/users/tokens/${token.id}/`)).status).toBe(204);
    expect((await t.get(TENANTS, { token: user.token })).body).toEqual({ detail: 'Invalid token' });
  });

  it('refuses a cached token once it expires, on the database\'s clock', async () => {
    const db = t.server.db.knex;
    const user = await t.createUser('expiring', { superuser: true, tokenFields: { expires: db.raw("now() + interval '1 second'") } });
    expect((await t.get(TENANTS, { token: user.token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await t.get(TENANTS, { token: user.token })).body).toEqual({ detail: 'Token expired' });
  });

  it('reads a token again in every process once it changed in one: another server refuses a token deleted here', async () => {
    // An hour's cache: only the commit's notice can make the other server read the token again.
    const hour = { TOKEN_CACHE_SECONDS: 3600 };
    const a = await startServer({ settings: hour });
    const b = await startServer({ joining: a, settings: hour });
    try {
      const user = await a.createUser('shared', { superuser: true });
      expect((await b.get(TENANTS, { token: user.token })).status).toBe(200);
      const [token] = (await a.get(`/api/users/tokens/?user_id=${user.id}`)).body.results as { id: number }[];
      expect((await a.request('DELETE', `/api/users/tokens/${token.id}/`)).status).toBe(204);
      let refused = false;
      for (let i = 0; i < 50 && !refused; i++) {
        refused = (await b.get(TENANTS, { token: user.token })).status === 403;
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(refused).toBe(true);
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('reads every time with TOKEN_CACHE_SECONDS=0', async () => {
    const uncached = await startServer();
    try {
      expect((await uncached.get(TENANTS)).status).toBe(200);
      expect(await uncached.countQueries(async () => expect((await uncached.get(`${TENANTS}?limit=1&brief=1`)).status).toBe(200))).toBe(3);
    } finally {
      await uncached.close();
    }
  });
});
