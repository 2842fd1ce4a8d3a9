import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLUGIN, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const WINDOWS = '/api/plugins/maintenance/windows/';
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN], settings: { PLUGINS_CONFIG: { maintenance: { horizon_days: 7 } } } });
});
afterAll(async () => {
  await t?.close();
});

describe('a third-party plugin enabled through PLUGINS', () => {
  it('is listed under /api/plugins/ with its endpoints, and in /api/status/', async () => {
    expect((await t.get('/api/plugins/')).body).toEqual({ maintenance: `${t.base}/api/plugins/maintenance/` });
    expect((await t.get('/api/plugins/maintenance/')).body).toEqual({ windows: `${t.base}${WINDOWS}` });
    expect((await t.get('/api/status/')).body.plugins).toEqual({ maintenance: '1.0.0' });
    expect((await t.get('/api/plugins/maintenance/windows')).status).toBe(302);
  });

  it('serves its model with every REST convention', async () => {
    const { body: tenant } = await t.post('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
    const created = await t.post(WINDOWS, { name: 'Core upgrade', starts: '2030-01-02T03:04:05Z', tenant: { slug: 'acme' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      url: `${t.base}${WINDOWS}${created.body.id}/`,
      display_url: `${t.base}/plugins/maintenance/windows/${created.body.id}/`,
      display: 'Core upgrade',
      name: 'Core upgrade',
      status: { value: 'scheduled', label: 'Scheduled' },
      starts: '2030-01-02T03:04:05Z',
      ends: null,
      tenant: { id: tenant.id, url: `${t.base}/api/tenancy/tenants/${tenant.id}/`, display: 'Acme', name: 'Acme', slug: 'acme', description: '' },
      impact: 1,
      notify: true,
      description: '',
      target_version: null,
      announced: null,
      tags: [],
      custom_fields: {},
      created: expect.any(String),
      last_updated: expect.any(String),
    });
    // The plugin contributed a count to a built-in model.
    expect((await t.get(`/api/tenancy/tenants/${tenant.id}/`)).body.maintenance_window_count).toBe(1);

    const bad = await t.post(WINDOWS, { name: 'Bad', starts: 'tomorrow', impact: 9, status: 'done', notify: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      starts: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].'],
      impact: ['Ensure this value is less than or equal to 5.'],
      status: ['done is not a valid choice.'],
      notify: ['Must be a valid boolean.'],
    });
    expect((await t.post(WINDOWS, { name: 'Backwards', starts: '2030-01-02T00:00:00Z', ends: '2030-01-01T00:00:00+02:00' })).body).toEqual({
      ends: ['The window must end after it starts.'],
    });

    const bulk = await t.post(WINDOWS, [
      { name: 'B', starts: '2030-02-01T00:00:00Z', status: 'in-progress' },
      { name: 'A', starts: '2030-02-01T00:00:00Z', ends: '2030-02-01T04:00:00.5+01:00' },
    ]);
    expect(bulk.status).toBe(201);
    expect(bulk.body[1].ends).toBe('2030-02-01T03:00:00.500000Z');
    const list = await t.get(`${WINDOWS}?ordering=-starts,name&limit=2`);
    expect(list.body.count).toBe(3);
    expect(list.body.results.map((w: { name: string }) => w.name)).toEqual(['A', 'B']);
    expect(list.body.next).toBe(`${t.base}${WINDOWS}?ordering=-starts%2Cname&limit=2&offset=2`);
    const brief = await t.get(`${WINDOWS}${created.body.id}/?brief=1`);
    expect(brief.body).toEqual({
      id: created.body.id, url: created.body.url, display: 'Core upgrade', name: 'Core upgrade',
      status: { value: 'scheduled', label: 'Scheduled' }, starts: '2030-01-02T03:04:05Z', description: '',
    });

    const patched = await t.request('PATCH', WINDOWS, { body: bulk.body.map((w: { id: number }) => ({ id: w.id, status: 'completed' })) });
    expect(patched.body.map((w: { status: { value: string } }) => w.status.value)).toEqual(['completed', 'completed']);

    const options = await t.request('OPTIONS', WINDOWS);
    expect(options.body.name).toBe('Maintenance Window List');
    expect(options.body.actions.POST.impact).toEqual({
      type: 'integer', required: false, read_only: false, label: 'Impact', help_text: '0 (none) to 5 (outage)', min_value: 0, max_value: 5,
    });
    expect(options.body.actions.POST.starts).toEqual({ type: 'datetime', required: true, read_only: false, label: 'Starts' });

    // Deleting the tenant leaves the window without one; deleting windows in bulk is atomic.
    expect((await t.request('DELETE', `/api/tenancy/tenants/${tenant.id}/`)).status).toBe(204);
    expect((await t.get(`${WINDOWS}${created.body.id}/`)).body.tenant).toBeNull();
    expect((await t.request('DELETE', WINDOWS, { body: bulk.body.map((w: { id: number }) => ({ id: w.id })) })).status).toBe(204);
    expect((await t.get(WINDOWS)).body.count).toBe(1);
  });

  it('takes contacts through the tenancy plugin, which knows it only by its declared feature', async () => {
    const { body: window } = await t.post(WINDOWS, { name: 'Contacted', starts: inDays(30) });
    const { body: contact } = await t.post('/api/tenancy/contacts/', { name: 'On call' });
    const res = await t.post('/api/tenancy/contact-assignments/', { object_type: 'maintenance.window', object_id: window.id, contact: contact.id });
    expect(res.status).toBe(201);
    expect(res.body.object).toMatchObject({ id: window.id, display: 'Contacted', name: 'Contacted' });
    expect(res.body.display).toBe('On call -> Contacted');
  });

  it('announces new windows in a background job on the Redis queue, only after the write committed', async () => {
    const rejected = await t.post(WINDOWS, [{ name: 'Rolled back', starts: inDays(40) }, { name: 'Invalid', starts: 'never' }]);
    expect(rejected.status).toBe(400);
    const { body: quiet } = await t.post(WINDOWS, { name: 'Quiet', starts: inDays(41), notify: false });
    const { body: loud } = await t.post(WINDOWS, { name: 'Loud', starts: inDays(42) });
    expect(loud.announced).toBeNull();
    const deadline = Date.now() + 10_000;
    let announced: string | null = null;
    while (!announced && Date.now() < deadline) {
      announced = (await t.get(`${WINDOWS}${loud.id}/`)).body.announced;
      if (!announced) await new Promise((r) => setTimeout(r, 50));
    }
    expect(announced).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await t.get(`${WINDOWS}${quiet.id}/`)).body.announced).toBeNull();
    expect(t.server.queue.kind).toBe('redis');
    const options = await t.request('OPTIONS', WINDOWS);
    expect(options.body.actions.POST.announced).toMatchObject({ read_only: true, required: false });
  });

  it('serves its own route, using its validated config', async () => {
    await t.post(WINDOWS, [
      { name: 'Soon', starts: inDays(2) },
      { name: 'Later', starts: inDays(20) },
      { name: 'Called off', starts: inDays(3), status: 'cancelled' },
    ]);
    const res = await t.get('/api/plugins/maintenance/upcoming/');
    expect(res.status).toBe(200);
    expect(res.headers.get('api-version')).toBe('4.4');
    expect(res.body).toMatchObject({ horizon_days: 7, count: 1, results: [{ name: 'Soon', url: expect.stringContaining(WINDOWS) }] });
  });
});
