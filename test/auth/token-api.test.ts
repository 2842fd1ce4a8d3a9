import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

let t: TestServer;
let alice: TestUser;
let bob: TestUser;
const TOKENS = '/api/users/tokens/';
const MASKED = /^\*{34}[0-9a-f]{6}$/;

beforeAll(async () => {
  t = await startServer();
  alice = await t.createUser('alice');
  bob = await t.createUser('bob');
});
afterAll(async () => {
  await t?.close();
});

describe('tokens through the API', () => {
  it('lets every user create, list and delete their own tokens by default', async () => {
    const created = await t.post(TOKENS, { user: alice.id, description: 'ansible', write_enabled: false }, { token: alice.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      display: expect.stringMatching(MASKED),
      user: { id: alice.id, username: 'alice', display: 'alice', url: `${t.base}/api/users/users/${alice.id}/` },
      key: expect.stringMatching(/^[0-9a-f]{40}$/),
      write_enabled: false,
      description: 'ansible',
      expires: null,
      last_used: null,
      allowed_ips: null,
    });
    expect(created.body.display.slice(-6)).toBe(created.body.key.slice(-6));
    const mine = await t.get(TOKENS, { token: alice.token });
    expect(mine.body.results.every((k: { user: { id: number } }) => k.user.id === alice.id)).toBe(true);
    expect(mine.body.count).toBe(2);
    const bobs = (await t.get(`${TOKENS}?limit=0`)).body.results.find((k: { user: { id: number } }) => k.user.id === bob.id);
    expect((await t.get(`${TOKENS}${bobs.id}/`, { token: alice.token })).status).toBe(404);
    expect((await t.request('DELETE', `${TOKENS}${created.body.id}/`, { token: alice.token })).status).toBe(204);
    expect((await t.get('/api/tenancy/tenants/', { token: alice.token })).status).toBe(403);
  });

  it('needs users.grant_token to create a token for another user, who can then read it', async () => {
    const refused = await t.post(TOKENS, { user: bob.id }, { token: alice.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'This user does not have permission to create tokens for other users.' });
    const grant = await t.post('/api/users/permissions/', { name: 'grant', object_types: ['users.token'], actions: ['grant'], users: [alice.id] });
    expect(grant.status).toBe(201);
    const granted = await t.post(TOKENS, { user: bob.id, description: 'for bob' }, { token: alice.token });
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ user: { id: bob.id }, key: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect((await t.get('/api/tenancy/tenants/', { token: granted.body.key })).status).toBe(403);
    expect((await t.get(TOKENS, { token: granted.body.key })).status).toBe(200);
  });

  it('accepts an explicit key, and refuses a bad key or a past expiry', async () => {
    const key = 'ab'.repeat(20);
    expect((await t.post(TOKENS, { user: alice.id, key }, { token: alice.token })).body.key).toBe(key);
    expect((await t.post(TOKENS, { user: alice.id, key }, { token: alice.token })).body).toEqual({ key: ['token with this key already exists.'] });
    expect((await t.post(TOKENS, { user: alice.id, key: 'xyz' }, { token: alice.token })).body).toEqual({ key: ['Enter a valid key: 40 hexadecimal characters.'] });
    const past = await t.post(TOKENS, { user: alice.id, expires: '2001-01-01T00:00:00Z' }, { token: alice.token });
    expect(past.body.expires[0]).toMatch(/^Expiration time must be in the future\. Current server time is \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\)\.$/);
    const ips = await t.post(TOKENS, { user: alice.id, allowed_ips: ['10.0.0.0/8', '2001:db8::/32', 'nonsense'] }, { token: alice.token });
    expect(ips.body).toEqual({ allowed_ips: ['Enter a valid IPv4 or IPv6 prefix: nonsense'] });
  });

  it('hides keys after creation when ALLOW_TOKEN_RETRIEVAL is false', async () => {
    const hidden = await startServer({ settings: { ALLOW_TOKEN_RETRIEVAL: false } });
    try {
      const created = await hidden.post(TOKENS, { user: hidden.admin.id });
      expect(created.body.key).toMatch(/^[0-9a-f]{40}$/);
      const read = await hidden.get(`${TOKENS}${created.body.id}/`);
      expect(read.body).not.toHaveProperty('key');
      expect(read.body.display).toMatch(MASKED);
      expect((await hidden.get(TOKENS)).body.results.every((k: object) => !('key' in k))).toBe(true);
      expect((await hidden.get('/api/users/users/', { token: created.body.key })).status).toBe(200);
    } finally {
      await hidden.close();
    }
  });
});

describe('token provisioning', () => {
  const PROVISION = '/api/users/tokens/provision/';

  it('trades a username and password for a new token, without a token header', async () => {
    const res = await t.post(PROVISION, { username: 'alice', password: alice.password, description: 'ci', write_enabled: false }, { token: null });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      user: { id: alice.id, username: 'alice' }, key: expect.stringMatching(/^[0-9a-f]{40}$/), write_enabled: false, description: 'ci',
      expires: null, last_used: null,
    });
    expect((await t.get('/api/users/tokens/', { token: res.body.key })).status).toBe(200);
  });

  it('refuses bad credentials with one message whichever part was wrong', async () => {
    for (const body of [{ username: 'alice', password: 'wrong password!' }, { username: 'nobody', password: alice.password }]) {
      const res = await t.post(PROVISION, body, { token: null });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Invalid username/password' });
    }
    expect((await t.post(PROVISION, { username: 'alice' }, { token: null })).body).toEqual({ password: ['This field is required.'] });
  });

  it('needs the permission to add tokens', async () => {
    const strict = await startServer({ settings: { DEFAULT_PERMISSIONS: {} } });
    try {
      const carol = await strict.createUser('carol');
      const res = await strict.post(PROVISION, { username: 'carol', password: carol.password }, { token: null });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' });
      expect(await strict.server.db.knex('users_token').where('user_id', carol.id).count({ n: '*' })).toEqual([{ n: '1' }]);
    } finally {
      await strict.close();
    }
  });
});
