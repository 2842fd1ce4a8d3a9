import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

/** The login form's CSRF token, as a browser gets it: a cookie and the same value in the form. */
async function csrf(): Promise<string> {
  const page = await t.get('/login/', { token: null });
  return /name="csrfmiddlewaretoken" value="([0-9a-f]{64})"/.exec(page.text)![1];
}

/** A login form post, with the CSRF cookie and token a browser would send. */
const form = async (fields: Record<string, string>) => {
  const token = await csrf();
  return {
    raw: new URLSearchParams({ csrfmiddlewaretoken: token, ...fields }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `csrftoken=${token}` },
    token: null,
  };
};

/** `name=value` pairs of the Set-Cookie headers. */
function cookieJar(headers: Headers): Record<string, { value: string; attrs: string }> {
  const jar: Record<string, { value: string; attrs: string }> = {};
  for (const line of headers.getSetCookie()) {
    const [pair, ...attrs] = line.split('; ');
    const [name, value] = pair.split('=');
    jar[name] = { value: decodeURIComponent(value), attrs: attrs.join('; ') };
  }
  return jar;
}

describe('browser sessions', () => {
  it('serves a login page and refuses wrong credentials on it', async () => {
    const page = await t.get('/login/', { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form class="card" method="post" action="/login/">');
    // The form is protected as Django's: without the cookie's token in it, nothing is checked.
    const token = cookieJar(page.headers).csrftoken.value;
    expect(page.text).toContain(`name="csrfmiddlewaretoken" value="${token}"`);
    const forged = await t.request('POST', '/login/', {
      raw: new URLSearchParams({ username: 'admin', password: t.admin.password }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `csrftoken=${token}` },
      token: null,
    });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('CSRF verification failed.');
    expect(forged.headers.getSetCookie()).toEqual([]);
    const wrong = await t.request('POST', '/login/', await form({ username: 'admin', password: 'nope' }));
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain('Invalid username/password');
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('logs in with an HttpOnly SameSite cookie, shows the user in the browsable API, and logs out', async () => {
    const login = await t.request('POST', '/login/', await form({ username: 'admin', password: t.admin.password, next: '/api/tenancy/' }));
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe('/api/tenancy/');
    const jar = cookieJar(login.headers);
    expect(jar.sessionid.attrs).toMatch(/HttpOnly/);
    expect(jar.sessionid.attrs).toMatch(/SameSite=Lax/);
    expect(jar.csrftoken.attrs).not.toMatch(/HttpOnly/);
    const cookie = `sessionid=${jar.sessionid.value}; csrftoken=${jar.csrftoken.value}`;

    const page = await t.get('/api/', { token: null, headers: { Cookie: cookie, Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Logged in as <b>admin</b>');
    expect((await t.get('/api/users/users/?limit=1', { token: null, headers: { Cookie: cookie } })).status).toBe(200);
    expect((await t.server.db.knex('users_user').where('username', 'admin').first('last_login')).last_login).not.toBeNull();

    // Unsafe methods with a cookie need the CSRF token.
    const noCsrf = await t.post('/api/tenancy/tenants/', { name: 'C', slug: 'c' }, { token: null, headers: { Cookie: cookie } });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toEqual({ detail: 'CSRF Failed: CSRF token missing or incorrect.' });
    const badCsrf = await t.post('/api/tenancy/tenants/', { name: 'C', slug: 'c' }, { token: null, headers: { Cookie: cookie, 'X-CSRFToken': 'x'.repeat(64) } });
    expect(badCsrf.status).toBe(403);
    // Paths are case-sensitive, as NetBox's: another spelling reaches no endpoint (and no check is skipped on the way).
    const shouted = await t.post('/API/tenancy/tenants/', { name: 'C', slug: 'c' }, { token: null, headers: { Cookie: cookie } });
    expect(shouted.status).toBe(404);
    expect((await t.get('/api/tenancy/tenants/?name=C')).body.count).toBe(0);
    const ok = await t.post('/api/tenancy/tenants/', { name: 'C', slug: 'c' }, { token: null, headers: { Cookie: cookie, 'X-CSRFToken': jar.csrftoken.value } });
    expect(ok.status).toBe(201);

    // Logging out is a POST form with the session's token (NetBox 4's): a GET or a post without the token ends nothing.
    const linked = await t.get('/logout/', { token: null, headers: { Cookie: cookie } });
    expect(linked.status).toBe(405);
    expect(linked.headers.get('allow')).toBe('POST');
    const forged = await t.request('POST', '/logout/', { token: null, headers: { Cookie: cookie } });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('CSRF token missing or incorrect.');
    expect((await t.get('/api/tenancy/tenants/', { token: null, headers: { Cookie: cookie } })).status).toBe(200);
    const logout = await t.request('POST', '/logout/', {
      token: null,
      raw: new URLSearchParams({ csrfmiddlewaretoken: jar.csrftoken.value }).toString(),
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('/login/');
    expect(cookieJar(logout.headers).sessionid.attrs).toMatch(/Max-Age=0/);
    expect((await t.get('/api/tenancy/tenants/', { token: null, headers: { Cookie: cookie } })).status).toBe(403);
  });

  it('never redirects off the site after a login', async () => {
    for (const next of ['//evil.example/', '/\\evil.example/', '/\\/evil.example', 'https://evil.example/', '/\t/evil.example']) {
      const login = await t.request('POST', '/login/', await form({ username: 'admin', password: t.admin.password, next }));
      expect(login.headers.get('location'), next).toBe('/api/');
    }
    const local = await t.request('POST', '/login/', await form({ username: 'admin', password: t.admin.password, next: '/api/tenancy/?q=a//b' }));
    expect(local.headers.get('location')).toBe('/api/tenancy/?q=a//b');
  });

  it('guide a browser: / leads to the API, every page offers to log in or out, JSON keeps the query', async () => {
    const root = await t.get('/', { token: null });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/api/');
    const missing = await t.get('/nothing/here/?x=1', { token: null, headers: { Accept: 'text/html' } });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<a class="btn btn-light" href="/login/?next=%2Fnothing%2Fhere%2F%3Fx%3D1">Log in</a>');
    const login = await t.request('POST', '/login/', await form({ username: 'admin', password: t.admin.password }));
    const jar = cookieJar(login.headers);
    const page = await t.get('/api/tenancy/tenants/?limit=1&ordering=-name', { token: null, headers: { Cookie: `sessionid=${jar.sessionid.value}`, Accept: 'text/html' } });
    expect(page.text).toContain(
      `Logged in as <b>admin</b></span><form class="logout" method="post" action="/logout/"><input type="hidden" name="csrfmiddlewaretoken" value="${jar.csrftoken.value}"><button class="btn btn-light" type="submit">Log out</button></form>`,
    );
    expect(page.text).toContain('<a class="btn" href="/api/tenancy/tenants/?limit=1&#38;ordering=-name&#38;format=json">JSON</a>');
  });
});
