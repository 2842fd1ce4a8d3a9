import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPatchbay, type TestPatchbay } from 'patchbay/testing';

// Its tests use the test kit only, as a third-party plugin's would; the plugin is loaded by its folder's path.
const PLUGIN = fileURLToPath(new URL('../../examples/plugins/maintenance/', import.meta.url));
let t: TestPatchbay;
const WINDOWS = '/api/plugins/maintenance/windows/';
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

beforeAll(async () => {
  // Its announcements run on Redis here (the kit's default is the PostgreSQL queue).
  t = await startPatchbay({ plugins: [PLUGIN], settings: { PLUGINS_CONFIG: { maintenance: { horizon_days: 7 } }, REDIS_URL: inject('redisUrl') } });
});
afterAll(async () => {
  await t?.close();
});

describe('a third-party plugin enabled through PLUGINS', () => {
  it('is listed under /api/plugins/ with its endpoints, among the installed plugins, and in /api/status/', async () => {
    const root = (await t.get('/api/plugins/')).body;
    expect(root).toEqual({ 'installed-plugins': `${t.base}/api/plugins/installed-plugins/`, maintenance: `${t.base}/api/plugins/maintenance/` });
    expect(Object.keys(root)).toEqual(['installed-plugins', 'maintenance']);
    // What pynetbox's nb.plugins.installed_plugins() reads: NetBox's keys, for staff only.
    expect((await t.get('/api/plugins/installed-plugins/')).body).toEqual([{
      name: 'Maintenance windows', package: 'maintenance', author: 'The Patchbay authors', author_email: 'patchbay@example.com',
      description: 'Planned maintenance windows of sites and devices, with their checklists', version: '1.0.0', release_track: '',
    }]);
    const user = await t.createUser('not-staff');
    expect((await t.get('/api/plugins/installed-plugins/', { token: user.token })).status).toBe(403);
    expect((await t.get('/api/plugins/installed-plugins/', { token: null })).status).toBe(403);
    // Its models and its own list route.
    expect((await t.get('/api/plugins/maintenance/')).body).toEqual({
      tasks: `${t.base}/api/plugins/maintenance/tasks/`, upcoming: `${t.base}/api/plugins/maintenance/upcoming/`, windows: `${t.base}${WINDOWS}`,
    });
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
      duration_minutes: null,
      announced: null,
      tags: [],
      custom_fields: {},
      created: expect.any(String),
      last_updated: expect.any(String),
      task_count: 3,
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
    // The plugin's own field kind describes itself.
    expect(options.body.actions.POST.target_version).toEqual({
      type: 'string', required: false, read_only: false, label: 'Target version', help_text: 'Software version after the window, MAJOR.MINOR.PATCH', max_length: 32,
    });

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
    // Its list takes tenancy's contact filters; an assignment to a tenant with the same id does not count.
    const db = t.server.db.knex;
    const other = (await db('maintenance_window').select('id').whereNot('id', window.id).first()) as { id: number };
    if (!(await db('tenancy_tenant').where('id', other.id).first())) {
      await db('tenancy_tenant').insert({ id: other.id, name: `Same id ${other.id}`, slug: `same-id-${other.id}`, description: '', comments: '' });
    }
    const mixed = await t.post('/api/tenancy/contact-assignments/', { object_type: 'tenancy.tenant', object_id: other.id, contact: contact.id });
    expect(mixed.status).toBe(201);
    expect((await t.get(`${WINDOWS}?contact=${contact.id}`)).body.results.map((w: { id: number }) => w.id)).toEqual([window.id]);
  });

  it('takes tenancy\'s tenant group filters, because it has a tenant', async () => {
    const { body: group } = await t.post('/api/tenancy/tenant-groups/', { name: 'Carriers', slug: 'carriers' });
    const { body: sub } = await t.post('/api/tenancy/tenant-groups/', { name: 'Carriers EU', slug: 'carriers-eu', parent: group.id });
    const { body: tenant } = await t.post('/api/tenancy/tenants/', { name: 'Grouped', slug: 'grouped', group: sub.id });
    const { body: window } = await t.post(WINDOWS, { name: 'Grouped window', starts: inDays(40), tenant: tenant.id });
    for (const query of [`tenant_group_id=${group.id}`, 'tenant_group=carriers', 'tenant_group=carriers-eu']) {
      expect((await t.get(`${WINDOWS}?${query}`)).body.results.map((w: { id: number }) => w.id)).toEqual([window.id]);
    }
    expect((await t.get(`${WINDOWS}?tenant_group=nowhere`)).body).toEqual({ tenant_group: ['Select a valid choice. nowhere is not one of the available choices.'] });
  });

  it('announces new windows in a background job on the Redis queue, only after the write committed', async () => {
    const rejected = await t.post(WINDOWS, [{ name: 'Rolled back', starts: inDays(40) }, { name: 'Invalid', starts: 'never' }]);
    expect(rejected.status).toBe(400);
    const { body: quiet } = await t.post(WINDOWS, { name: 'Quiet', starts: inDays(41), notify: false });
    const created = await t.post(WINDOWS, { name: 'Loud', starts: inDays(42) });
    const loud = created.body;
    expect(loud.announced).toBeNull();
    const deadline = Date.now() + 10_000;
    let announced: string | null = null;
    while (!announced && Date.now() < deadline) {
      announced = (await t.get(`${WINDOWS}${loud.id}/`)).body.announced;
      if (!announced) await new Promise((r) => setTimeout(r, 50));
    }
    expect(announced).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The job wrote through the change-logged path, as the system, in a request of its own.
    const changes = (await t.get(`/api/extras/object-changes/?changed_object_type=maintenance.window&changed_object_id=${loud.id}&action=update`)).body.results;
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ user: null, user_name: '', prechange_data: { announced: null }, postchange_data: { announced } });
    expect(changes[0].request_id).not.toBe(created.headers.get('x-request-id'));
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
    let res!: Awaited<ReturnType<typeof t.get>>;
    const statements = (await t.statements(async () => {
      res = await t.get('/api/plugins/maintenance/upcoming/');
    })).map((s) => s.sql);
    expect(res.status).toBe(200);
    expect(res.headers.get('api-version')).toBe('4.4');
    expect(res.body).toMatchObject({ horizon_days: 7, count: 1, results: [{ name: 'Soon', url: expect.stringContaining(WINDOWS) }] });
    // Listed for their brief forms (renderedAs), the windows are read without the columns those do not show, and
    // render as the API's brief form does. The route's read is the one in its order (the plugin's jobs may lock
    // windows meanwhile).
    const read = statements.find((sql) => sql.includes('from "maintenance_window"') && sql.includes('order by "t"."starts"'));
    expect(read).toMatch(/^select "t"\."id", "t"\."name", /);
    expect(read).not.toContain('"t".*');
    expect(read).not.toContain('"notify"');
    const brief = (await t.get(`${WINDOWS}?name=Soon&brief=1`)).body.results;
    expect(res.body.results).toEqual(brief);
  });
});

describe("the plugin's own field kind (a semantic version)", () => {
  it('is written, filtered with its own lookups and ordered by its numbers, with no kernel change', async () => {
    const made = await t.post(WINDOWS, [
      { name: 'V a', starts: inDays(60), target_version: '1.9.2', notify: false },
      { name: 'V b', starts: inDays(61), target_version: '1.10.0', notify: false },
      { name: 'V c', starts: inDays(62), target_version: 'v2.0.0', notify: false },
      { name: 'V d', starts: inDays(63), target_version: '1.02.3', notify: false },
    ]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.map((w: { target_version: string }) => w.target_version)).toEqual(['1.9.2', '1.10.0', '2.0.0', '1.2.3']);
    const names = async (query: string) => (await t.get(`${WINDOWS}?name__isw=V&${query}`)).body.results.map((w: { name: string }) => w.name);
    expect(await names('ordering=target_version')).toEqual(['V d', 'V a', 'V b', 'V c']);
    expect(await names('ordering=-target_version')).toEqual(['V c', 'V b', 'V a', 'V d']);
    expect(await names('target_version__gte=1.10.0&ordering=name')).toEqual(['V b', 'V c']);
    expect(await names('target_version__lt=1.10.0&ordering=name')).toEqual(['V a', 'V d']);
    expect(await names('target_version__major=1&target_version__n=1.2.3&ordering=name')).toEqual(['V a', 'V b']);
    expect(await names('target_version=1.010.0')).toEqual(['V b']);

    expect((await t.get(`${WINDOWS}?target_version__gte=soon`)).body).toEqual({ target_version__gte: ['Enter a version as MAJOR.MINOR.PATCH.'] });
    expect((await t.post(WINDOWS, { name: 'V bad', starts: inDays(64), target_version: '2.0' })).body).toEqual({
      target_version: ['Enter a version as MAJOR.MINOR.PATCH, e.g. 1.10.0.'],
    });
    const index = await t.server.db.knex.raw(`select indexdef from pg_indexes where indexname = 'maintenance_window_target_version_numbers'`);
    expect(index.rows[0].indexdef).toContain("string_to_array((target_version)::text, '.'::text))::integer[]");
  });

  it('works in permission constraints too, which compile through the same lookups', async () => {
    const user = await t.createUser('v2-viewer');
    const grant = await t.post('/api/users/permissions/', {
      name: 'v2 windows', object_types: ['maintenance.window'], actions: ['view'], constraints: { target_version__major: 2 }, users: [user.id],
    });
    expect(grant.status).toBe(201);
    const seen = (await t.get(`${WINDOWS}?limit=0`, { token: user.token })).body.results.map((w: { target_version: string }) => w.target_version);
    expect(seen).toEqual(['2.0.0']);
  });
});

describe('natural ordering', () => {
  it('sorts names with numbers as people read them, by a key the database keeps and indexes', async () => {
    await t.post(WINDOWS, ['Rack 10', 'Rack 9', 'Rack 100', 'Rack 1/2', 'Rack 1/10'].map((name, i) => ({ name, starts: inDays(70 + i), notify: false })));
    const names = (await t.get(`${WINDOWS}?name__isw=Rack&ordering=name`)).body.results.map((w: { name: string }) => w.name);
    expect(names).toEqual(['Rack 1/2', 'Rack 1/10', 'Rack 9', 'Rack 10', 'Rack 100']);
    const reversed = (await t.get(`${WINDOWS}?name__isw=Rack&ordering=-name`)).body.results.map((w: { name: string }) => w.name);
    expect(reversed).toEqual([...names].reverse());
    const db = t.server.db.knex;
    await db.transaction(async (trx) => {
      await trx.raw('set local enable_seqscan = off');
      const plan = await trx.raw(`explain select id from maintenance_window order by name_natural limit 10`);
      expect(plan.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n')).toContain('maintenance_window_name_natural_idx');
    });
  });
});

describe('lifecycle hooks of a third-party model', () => {
  it('derive a column before save, create the checklist after save and guard deletes, all in the write', async () => {
    const created = await t.post(WINDOWS, { name: 'Hooked', starts: '2031-01-01T00:00:00Z', ends: '2031-01-01T01:30:00Z', notify: false });
    expect(created.body).toMatchObject({ duration_minutes: 90, task_count: 3 });
    const tasks = (await t.get(`/api/plugins/maintenance/tasks/?window_id=${created.body.id}`)).body.results;
    expect(tasks.map((task: { name: string; done: boolean }) => [task.name, task.done])).toEqual([['Announce', false], ['Execute', false], ['Verify', false]]);
    // Each task is change-logged in the window's request, with the window as its parent.
    const logged = (await t.get(`/api/extras/object-changes/?request_id=${created.headers.get('x-request-id')}&limit=0`)).body.results;
    expect(logged.map((c: { changed_object_type: string }) => c.changed_object_type).sort()).toEqual([
      'maintenance.task', 'maintenance.task', 'maintenance.task', 'maintenance.window',
    ]);
    expect(logged.find((c: { changed_object_type: string }) => c.changed_object_type === 'maintenance.task')).toMatchObject({
      related_object_type: 'maintenance.window', related_object_id: created.body.id,
    });

    // Tasks are a model like any other: unique per window, its rules a 400 naming the field.
    const TASKS = '/api/plugins/maintenance/tasks/';
    expect((await t.post(TASKS, { window: created.body.id, name: 'Verify' })).body).toEqual({
      __all__: ['Maintenance task with this Window and Name already exists.'],
    });
    expect((await t.post(TASKS, { window: 999999, name: 'Orphan' })).body).toEqual({ window: ['Related object not found using the provided numeric ID: 999999'] });
    expect((await t.post(TASKS, { window: created.body.id, name: 'Rollback plan', done: 'maybe' })).body).toEqual({ done: ['Must be a valid boolean.'] });

    const patched = await t.request('PATCH', `${WINDOWS}${created.body.id}/`, { body: { ends: '2031-01-01T03:00:00Z', status: 'in-progress' } });
    expect(patched.body).toMatchObject({ duration_minutes: 180, task_count: 3 });
    // The column is the plugin's to set: clients cannot.
    expect((await t.request('PATCH', `${WINDOWS}${created.body.id}/`, { body: { duration_minutes: 5 } })).body.duration_minutes).toBe(180);

    const { body: other } = await t.post(WINDOWS, { name: 'Deletable', starts: '2031-02-01T00:00:00Z', notify: false });
    const taskCount = async () => (await t.get('/api/plugins/maintenance/tasks/?limit=1')).body.count;
    const before = await taskCount();
    const refused = await t.request('DELETE', WINDOWS, { body: [{ id: other.id }, { id: created.body.id }] });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'Maintenance window "Hooked" is in progress and cannot be deleted.' });
    expect((await t.get(`${WINDOWS}${other.id}/`)).status).toBe(200);
    expect((await t.request('DELETE', `${WINDOWS}${other.id}/`)).status).toBe(204);
    // Its checklist went with it (a cascade, each task change-logged).
    expect(await taskCount()).toBe(before - 3);
  });
});

describe("the plugin's route reads through the plugin context", () => {
  it("applies the requesting user's permissions", async () => {
    const nobody = await t.createUser('no-windows');
    const refused = await t.get('/api/plugins/maintenance/upcoming/', { token: nobody.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'You do not have permission to perform this action.' });

    const { body: tenant } = await t.post('/api/tenancy/tenants/', { name: 'Visible', slug: 'visible' });
    await t.post(WINDOWS, [
      { name: 'Theirs', starts: inDays(1), tenant: tenant.id, notify: false },
      { name: 'Not theirs', starts: inDays(1), notify: false },
    ]);
    const viewer = await t.createUser('tenant-viewer');
    await t.post('/api/users/permissions/', {
      name: 'tenant windows', object_types: ['maintenance.window'], actions: ['view'], constraints: { tenant__slug: 'visible' }, users: [viewer.id],
    });
    const seen = await t.get('/api/plugins/maintenance/upcoming/', { token: viewer.token });
    expect(seen.status).toBe(200);
    expect(seen.body.results.map((w: { name: string }) => w.name)).toEqual(['Theirs']);
  });
});
