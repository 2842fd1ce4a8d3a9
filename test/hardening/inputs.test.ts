import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/raw.js';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';
const NUL = 'Null characters are not allowed.';
const SURROGATE = 'Lone surrogates are not allowed: the text is not valid Unicode.';

beforeAll(async () => {
  t = await startServer({ plugins: ['./test/fixtures/plugins/faulty.ts'], settings: { ALLOWED_HOSTS: ['127.0.0.1', '.example.com'] } });
  await t.post('/api/extras/custom-fields/', [
    { name: 'note', type: 'text', object_types: ['tenancy.tenant'] },
    { name: 'count', type: 'integer', object_types: ['tenancy.tenant'] },
    { name: 'seen', type: 'datetime', object_types: ['tenancy.tenant'] },
  ]);
});
afterAll(async () => {
  await t?.close();
});

/** Nothing was written: the tenants and the change log are as they were. */
async function unchanged<T>(write: () => Promise<T>): Promise<T> {
  const count = async () => [(await t.get(`${TENANTS}?limit=1`)).body.count, (await t.get('/api/extras/object-changes/?limit=1')).body.count];
  const before = await count();
  const result = await write();
  expect(await count()).toEqual(before);
  return result;
}

describe('text PostgreSQL cannot store', () => {
  it('is a 400 naming the field in bodies, custom fields and bulk items, with nothing written', async () => {
    await unchanged(async () => {
      expect((await t.post(TENANTS, { name: 'a\u0000b', slug: 'nul' })).body).toEqual({ name: [NUL] });
      expect((await t.post(TENANTS, { name: '\ud800', slug: 'lone' })).body).toEqual({ name: [SURROGATE] });
      expect((await t.post(TENANTS, { name: 'Ok', slug: 'ok', custom_fields: { note: 'x\u0000' } })).body).toEqual({ custom_fields: [NUL] });
      expect((await t.post(TENANTS, [{ name: 'Fine', slug: 'fine' }, { name: 'Bad', slug: 'bad', description: 'a\udfff' }])).body).toEqual([
        {}, { description: [SURROGATE] },
      ]);
    });
    // A surrogate pair is a character like any other.
    expect((await t.post(TENANTS, { name: 'Emoji 😀', slug: 'emoji' })).status).toBe(201);
  });

  it('is a 400 naming the parameter in filters and search, and refused at provisioning and login', async () => {
    expect((await t.get(`${TENANTS}?name=a%00b`)).body).toEqual({ name: [NUL] });
    expect((await t.get(`${TENANTS}?q=%00`)).body).toEqual({ q: [NUL] });
    expect((await t.get(`${TENANTS}?cf_note=%00`)).body).toEqual({ cf_note: [NUL] });
    const provision = await t.post('/api/users/tokens/provision/', { username: 'admin\u0000', password: 'x' }, { token: null });
    expect(provision.body).toEqual({ username: [NUL] });
    const token = /name="csrfmiddlewaretoken" value="([0-9a-f]{64})"/.exec((await t.get('/login/', { token: null })).text)![1];
    const login = await t.request('POST', '/login/', {
      raw: `username=a%00&password=b&csrfmiddlewaretoken=${token}`,
      token: null,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `csrftoken=${token}` },
    });
    expect(login.status).toBe(200);
    expect(login.text).toContain('Invalid username/password');
  });
});

describe('values that are not what they claim', () => {
  it('impossible calendar dates are a 400, in filters and in datetime custom fields', async () => {
    expect((await t.get(`${TENANTS}?created=2024-02-30`)).body).toEqual({ created: ['Enter a valid date/time.'] });
    expect((await t.get(`/api/extras/object-changes/?time__gte=2024-02-31`)).body).toEqual({ time__gte: ['Enter a valid date/time.'] });
    expect((await t.get(`${TENANTS}?created__lt=2024-01-01T24:00:00Z`)).status).toBe(400);
    const stored = await t.post(TENANTS, { name: 'Leap', slug: 'leap', custom_fields: { seen: '2023-02-29T10:00:00Z' } });
    expect(stored.body).toEqual({ __all__: ["Invalid value for custom field 'seen': Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS)."] });
  });

  it('every filter parses its values before any SQL is built', async () => {
    for (const query of ['assigned_object_id=abc', 'assigned_object_type_id=1.5']) {
      const res = await t.get(`/api/extras/journal-entries/?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body[query.split('=')[0]]).toEqual(['Enter a whole number.']);
    }
    expect((await t.get('/api/extras/object-changes/?changed_object_id=x')).body).toEqual({ changed_object_id: ['Enter a whole number.'] });
    expect((await t.get('/api/tenancy/contact-assignments/?object_id=1e3')).body).toEqual({ object_id: ['Enter a whole number.'] });
    expect((await t.get(`${TENANTS}?cf_note__empty=maybe`)).body).toEqual({ cf_note__empty: ['Select a valid choice. maybe is not one of the available choices.'] });
    expect((await t.get(`${TENANTS}?cf_note__regex=[`)).body.cf_note__regex[0]).toMatch(/^Invalid regular expression/);
    expect((await t.get('/api/users/tokens/?allowed_ips=abc')).body).toEqual({ allowed_ips: ['Enter a valid IPv4 or IPv6 prefix: abc'] });
  });

  it('integers out of range are a 400, never a database error', async () => {
    expect((await t.get(`${TENANTS}?start=3000000000`)).body).toEqual({ start: ['Ensure this value is less than or equal to 2147483647.'] });
    expect((await t.get(`${TENANTS}?offset=99999999999999999999`)).body).toEqual({ offset: ['Ensure this value is less than or equal to 2147483647.'] });
    expect((await t.get(`${TENANTS}?limit=99999999999999999999`)).status).toBe(400);
    expect((await t.get(`${TENANTS}?id=99999999999`)).body).toEqual({ id: ['Enter a whole number.'] });
    // Found by the fuzz suite (seed 7): an id filter of an extension plugin.
    expect((await t.get(`${TENANTS}?tag_id=2147483648`)).body).toEqual({ tag_id: ['Enter a whole number.'] });
    await unchanged(async () => {
      expect((await t.request('PATCH', TENANTS, { body: [{ id: -9223372036854775808, name: 'x' }] })).body).toEqual([{ id: ['A valid integer is required.'] }]);
      expect((await t.request('DELETE', TENANTS, { body: [{ id: 1e300 }] })).body).toEqual([{ id: ['A valid integer is required.'] }]);
      expect((await t.post(TENANTS, { name: 'Huge', slug: 'huge', custom_fields: { count: 1e308 } })).body).toEqual({
        __all__: ["Invalid value for custom field 'count': Value must be between -9007199254740991 and 9007199254740991."],
      });
      expect((await t.post(TENANTS, { name: 'Huge', slug: 'huge', group: 99999999999 })).body).toEqual({
        group: ['Related object not found using the provided numeric ID: 99999999999'],
      });
    });
  });
});

describe('the Host header', () => {
  it('a malformed one is a 400 before any URL is built from it', async () => {
    for (const host of ['a b', '', 'example.com:99999', 'exa mple.com:80', 'host:port']) {
      const res = await rawRequest(t.base, TENANTS, { Host: host, Authorization: `Token ${t.admin.token}`, Accept: 'application/json' });
      expect(res.status, host).toBe(400);
      expect(JSON.parse(res.body).detail, host).toMatch(/^Invalid HTTP_HOST header/);
    }
  });

  it('must be in ALLOWED_HOSTS: names, or a domain and its subdomains', async () => {
    const get = (host: string) => rawRequest(t.base, TENANTS, { Host: host, Authorization: `Token ${t.admin.token}`, Accept: 'application/json' });
    const refused = await get('evil.test');
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ detail: "Invalid HTTP_HOST header: 'evil.test'. You may need to add 'evil.test' to ALLOWED_HOSTS." });
    for (const host of ['example.com', 'nb.example.com:8443', 'NB.Example.com']) {
      const res = await get(host);
      expect(res.status, host).toBe(200);
      expect(JSON.parse(res.body).results.every((r: { url: string }) => r.url.startsWith(`http://${host}/`)), host).toBe(true);
    }
  });
});

describe('a failure of the server', () => {
  it('answers 500 with the request id only: no SQL, no stack', async () => {
    const res = await t.get('/api/plugins/faulty/broken/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'Server error', request_id: res.headers.get('x-request-id') });
  });
});
