import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Django's origin checks on every cookie-authenticated unsafe request (the API, login, logout): a foreign `Origin` is
 * refused even with the right token; over https (here from a trusted proxy's X-Forwarded-Proto) a request without
 * `Origin` needs a same-origin or trusted https `Referer`.
 */

let t: TestServer;
let own: string;
const TENANTS = '/api/tenancy/tenants/';
const FORM = 'application/x-www-form-urlencoded';

beforeAll(async () => {
  t = await startServer({
    settings: { TRUSTED_PROXIES: ['127.0.0.1/32'], CSRF_TRUSTED_ORIGINS: ['https://netbox.example.com', 'https://*.corp.example'] },
  });
  own = t.base.replace(/\/$/, '');
});
afterAll(async () => {
  await t?.close();
});

/** The login form's token: its cookie and the same value in the form. */
async function formToken(): Promise<string> {
  const page = await t.get('/login/', { token: null });
  return /name="csrfmiddlewaretoken" value="([0-9a-f]{64})"/.exec(page.text)![1];
}

/** A login form post with the cookie and token a browser sends, and `headers` (Origin, Referer, X-Forwarded-Proto). */
async function postLogin(headers: Record<string, string> = {}) {
  const token = await formToken();
  return t.request('POST', '/login/', {
    token: null,
    raw: new URLSearchParams({ csrfmiddlewaretoken: token, username: 'admin', password: t.admin.password }).toString(),
    headers: { 'Content-Type': FORM, Cookie: `csrftoken=${token}`, ...headers },
  });
}

/** A logged-in browser: its cookie header and CSRF token. */
async function session(): Promise<{ cookie: string; csrf: string }> {
  const login = await postLogin();
  expect(login.status).toBe(302);
  const jar = Object.fromEntries(login.headers.getSetCookie().map((line) => line.split(';')[0].split('=')));
  return { cookie: `sessionid=${jar.sessionid}; csrftoken=${jar.csrftoken}`, csrf: jar.csrftoken };
}

let made = 0;
/** A tenant created with the session's cookie and token, and `headers`. */
async function create(browser: { cookie: string; csrf: string }, headers: Record<string, string>) {
  made++;
  return t.post(TENANTS, { name: `T${made}`, slug: `t${made}` }, { token: null, headers: { Cookie: browser.cookie, 'X-CSRFToken': browser.csrf, ...headers } });
}

const count = async () => (await t.get(`${TENANTS}?limit=1`)).body.count as number;

describe('CSRF origin checks on the API', () => {
  it('accept same-origin writes over http, with or without Origin, and trusted origins', async () => {
    const browser = await session();
    expect((await create(browser, {})).status).toBe(201);
    expect((await create(browser, { Origin: own })).status).toBe(201);
    expect((await create(browser, { Origin: 'https://netbox.example.com' })).status).toBe(201);
    // `https://*.corp.example` trusts the domain and its subdomains, over https only.
    expect((await create(browser, { Origin: 'https://noc.corp.example' })).status).toBe(201);
    expect((await create(browser, { Origin: 'https://a.b.corp.example' })).status).toBe(201);
    expect((await create(browser, { Origin: 'https://corp.example' })).status).toBe(201);
  });

  it('refuse a foreign Origin even with the right token, naming it, and write nothing', async () => {
    const browser = await session();
    const before = await count();
    for (const origin of ['http://evil.example', 'null', 'http://noc.corp.example', 'https://evilcorp.example', 'https://netbox.example.com:8443', `${own}.evil.example`]) {
      const res = await create(browser, { Origin: origin });
      expect(res.status, origin).toBe(403);
      expect(res.body).toEqual({ detail: `CSRF Failed: Origin checking failed - ${origin} does not match any trusted origins.` });
    }
    // The origin is checked first, as Django's middleware does.
    const both = await t.post(TENANTS, { name: 'X', slug: 'x' }, { token: null, headers: { Cookie: browser.cookie, Origin: 'http://evil.example' } });
    expect(both.body.detail).toContain('Origin checking failed');
    expect(await count()).toBe(before);
  });

  it('over https, want Origin or a same-origin or trusted https Referer', async () => {
    const browser = await session();
    const https = own.replace(/^http:/, 'https:');
    const secure = { 'X-Forwarded-Proto': 'https' };
    const before = await count();
    const refused: [Record<string, string>, string][] = [
      [{}, 'Referer checking failed - no Referer.'],
      [{ Referer: 'not a url' }, 'Referer checking failed - Referer is malformed.'],
      [{ Referer: `${own}/api/` }, 'Referer checking failed - Referer is insecure while host is secure.'],
      [{ Referer: 'https://evil.example/page' }, 'Referer checking failed - https://evil.example/page does not match any trusted origins.'],
      // Seen through the proxy the server's origin is https: the http one is another.
      [{ Origin: own }, `Origin checking failed - ${own} does not match any trusted origins.`],
    ];
    for (const [headers, reason] of refused) {
      const res = await create(browser, { ...secure, ...headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toEqual({ detail: `CSRF Failed: ${reason}` });
    }
    expect(await count()).toBe(before);
    expect((await create(browser, { ...secure, Referer: `${https}/api/tenancy/tenants/` })).status).toBe(201);
    expect((await create(browser, { ...secure, Referer: 'https://noc.corp.example/x' })).status).toBe(201);
    expect((await create(browser, { ...secure, Origin: https })).status).toBe(201);
  });

  it('do not apply to token-authenticated requests, as in DRF', async () => {
    const res = await t.post(TENANTS, { name: 'By token', slug: 'by-token' }, { headers: { Origin: 'http://evil.example' } });
    expect(res.status).toBe(201);
  });
});

describe('CSRF origin checks on the login and logout forms', () => {
  it('refuse a login posted from another origin, and log in from this one', async () => {
    const foreign = await postLogin({ Origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('CSRF verification failed. Request aborted.');
    expect(foreign.text).toContain('Origin checking failed - http://evil.example does not match any trusted origins.');
    expect(foreign.headers.getSetCookie()).toEqual([]);
    expect((await postLogin({ Origin: own })).status).toBe(302);
    expect((await postLogin({ 'X-Forwarded-Proto': 'https' })).status).toBe(403);
    expect((await postLogin({ 'X-Forwarded-Proto': 'https', Referer: `${own.replace(/^http:/, 'https:')}/login/` })).status).toBe(302);
  });

  it('log out only by a POST with the token from this origin; GET is 405', async () => {
    const browser = await session();
    const alive = async () => (await t.get(TENANTS, { token: null, headers: { Cookie: browser.cookie } })).status === 200;
    const logout = (headers: Record<string, string>, form?: Record<string, string>) =>
      t.request('POST', '/logout/', { token: null, raw: form && new URLSearchParams(form).toString(), headers: { Cookie: browser.cookie, ...(form ? { 'Content-Type': FORM } : {}), ...headers } });

    expect((await t.get('/logout/', { token: null, headers: { Cookie: browser.cookie } })).status).toBe(405);
    const noToken = await logout({});
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('CSRF token missing or incorrect.');
    const foreign = await logout({ Origin: 'http://evil.example' }, { csrfmiddlewaretoken: browser.csrf });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('Origin checking failed - http://evil.example does not match any trusted origins.');
    expect(await alive()).toBe(true);

    const out = await logout({ Origin: own }, { csrfmiddlewaretoken: browser.csrf });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/login/');
    expect(await alive()).toBe(false);
    // A script's logout: the token in X-CSRFToken.
    const other = await session();
    const scripted = await t.request('POST', '/logout/', { token: null, headers: { Cookie: other.cookie, 'X-CSRFToken': other.csrf } });
    expect(scripted.status).toBe(302);
  });
});
