import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('headers and routing', () => {
  it('sends API-Version and a fresh X-Request-ID on every response', async () => {
    const a = await t.get('/api/');
    const b = await t.get('/api/nowhere/');
    expect(a.headers.get('api-version')).toBe('4.4');
    expect(b.headers.get('api-version')).toBe('4.4');
    const ids = [a.headers.get('x-request-id'), b.headers.get('x-request-id')];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('redirects a path without its trailing slash with 302, keeping the query', async () => {
    const res = await t.get('/api/tenancy/tenants?limit=5');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/api/tenancy/tenants/?limit=5');
    const detail = await t.request('POST', '/api/tenancy/tenants/7');
    expect(detail.status).toBe(302);
    expect(detail.headers.get('location')).toBe('/api/tenancy/tenants/7/');
  });

  it('answers unknown objects and routes with a JSON 404', async () => {
    // METRICS_ENABLED is off by default, as in NetBox.
    expect((await fetch(`${t.base}/metrics`)).status).toBe(404);
    for (const path of ['/api/tenancy/tenants/999/', '/api/tenancy/tenants/abc/', '/api/tenancy/nothing/']) {
      const res = await t.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    }
  });

  it('answers a method the endpoint lacks with 405', async () => {
    const res = await t.request('POST', '/api/tenancy/tenants/1/', { body: {} });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: 'Method "POST" not allowed.' });
  });
});

describe('API roots and status', () => {
  it('lists the apps at /api/ and each app endpoints', async () => {
    const root = await t.get('/api/');
    expect(root.body).toEqual({
      circuits: `${t.base}/api/circuits/`,
      core: `${t.base}/api/core/`,
      dcim: `${t.base}/api/dcim/`,
      extras: `${t.base}/api/extras/`,
      ipam: `${t.base}/api/ipam/`,
      plugins: `${t.base}/api/plugins/`,
      status: `${t.base}/api/status/`,
      tenancy: `${t.base}/api/tenancy/`,
      users: `${t.base}/api/users/`,
      virtualization: `${t.base}/api/virtualization/`,
    });
    const app = await t.get('/api/tenancy/');
    expect(Object.keys(app.body)).toEqual(['contact-assignments', 'contact-groups', 'contact-roles', 'contacts', 'tenant-groups', 'tenants']);
    expect(app.body.tenants).toBe(`${t.base}/api/tenancy/tenants/`);
  });

  it('lists in each app root every list endpoint the app serves, as the OpenAPI document names them', async () => {
    const { body: schema } = await t.get('/api/schema/?format=json');
    const apps = Object.values((await t.get('/api/')).body as Record<string, string>).map((url) => url.slice(t.base.length)).filter((p) => p !== '/api/status/');
    for (const app of apps) {
      // The app's GET routes one segment below its root: its models, aliases and list routes (background tasks, dashboard).
      const served = Object.keys(schema.paths as object)
        .filter((path) => path.startsWith(app) && /^[a-z0-9_-]+\/$/.test(path.slice(app.length)) && (schema.paths as Record<string, object>)[path] && 'get' in (schema.paths as Record<string, object>)[path])
        .map((path) => path.slice(app.length, -1))
        .sort();
      const listed = (await t.get(app)).body as Record<string, string>;
      expect(Object.keys(listed).sort(), app).toEqual(expect.arrayContaining(served));
      for (const [name, url] of Object.entries(listed)) expect(url, `${app}${name}`).toBe(`${t.base}${app}${name}/`);
      // Each answers GET (connected-device wants its parameters: a 400 saying so).
      for (const url of Object.values(listed)) expect([200, 400], url).toContain((await t.get(url.slice(t.base.length))).status);
    }
  });

  it('serves the browsable root as HTML to a browser', async () => {
    const res = await t.get('/api/', { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain(`<a class="j-link" href="${t.base}/api/tenancy/">`);
    expect(res.text).toContain('Logged in as <b>admin</b>');
    const json = await t.get('/api/?format=json', { headers: { Accept: 'text/html' } });
    expect(json.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('reports versions, plugins, database and queue state', async () => {
    const res = await t.get('/api/status/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      // NetBox's keys, as pynetbox's status() returns them.
      'installed-apps': { tenancy: expect.any(String), extras: expect.any(String) },
      'netbox-version': '4.4',
      'netbox-full-version': '4.4',
      plugins: {},
      'rq-workers-running': 1,
      'api-version': '4.4',
      'patchbay-version': expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: { status: 'ok', pending_migrations: 0 },
      queue: { backend: 'redis', status: 'ok' },
    });
  });
});

describe('request bodies', () => {
  it('rejects malformed JSON with 400', async () => {
    const res = await t.request('POST', '/api/tenancy/tenants/', { raw: '{"name": ', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^JSON parse error - /);
  });

  it('rejects an unsupported content type with 415', async () => {
    const res = await t.request('POST', '/api/tenancy/tenants/', { raw: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
  });

  it('rejects an oversized body with 413', async () => {
    const small = await startServer({ settings: { MAX_BODY_SIZE: 1024 } });
    try {
      const res = await small.request('POST', '/api/tenancy/tenants/', { body: { name: 'x'.repeat(2000), slug: 'x' } });
      expect(res.status).toBe(413);
      expect(res.body.detail).toMatch(/exceeds the limit of 1024 bytes/);
      expect((await small.get('/api/tenancy/tenants/')).body.count).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('pretty-prints with ?indent= or the media type parameter, as DRF does', async () => {
    const res = await t.get('/api/tenancy/?indent=4');
    expect(res.text).toBe(JSON.stringify(res.body, null, 4));
    const byAccept = await t.get('/api/tenancy/tenants/', { headers: { Accept: 'application/json; indent=2' } });
    expect(byAccept.text).toBe(JSON.stringify(byAccept.body, null, 2));
    expect(byAccept.text).toContain('\n  "count": ');
    // Other media types' parameters, and nonsense, leave the JSON compact.
    for (const accept of ['text/plain; indent=4, application/json', 'application/json; indent=x', 'application/json']) {
      const plain = await t.get('/api/tenancy/', { headers: { Accept: accept } });
      expect(plain.text, accept).toBe(JSON.stringify(plain.body));
    }
  });
});
