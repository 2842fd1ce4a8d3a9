import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manage } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';
const CHANGES = '/api/extras/object-changes/';

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

const changes = async (query: string) => (await t.get(`${CHANGES}?${query}&limit=0`)).body.results;

describe('change log', () => {
  it('records one change per object of a single or bulk write, with the request id and message', async () => {
    const single = await t.post(TENANTS, { name: 'One', slug: 'one', changelog_message: 'ticket 1' });
    const requestId = single.headers.get('x-request-id')!;
    const [record] = await changes(`request_id=${requestId}`);
    expect(record).toMatchObject({
      user: { id: t.admin.id, username: 'admin' },
      user_name: 'admin',
      request_id: requestId,
      action: { value: 'create', label: 'Created' },
      changed_object_type: 'tenancy.tenant',
      changed_object_id: single.body.id,
      changed_object: { id: single.body.id, name: 'One' },
      object_repr: 'One',
      message: 'ticket 1',
      postchange_data: { name: 'One', slug: 'one', group: null, description: '', comments: '', tags: [] },
      display: 'One created by admin',
    });
    // NetBox's shape: nothing before a create, nothing after a delete.
    expect(record.prechange_data).toBeNull();

    const bulk = await t.post(TENANTS, [{ name: 'Two', slug: 'two', changelog_message: 'a' }, { name: 'Three', slug: 'three', changelog_message: 'b' }]);
    const bulkRecords = await changes(`request_id=${bulk.headers.get('x-request-id')}`);
    expect(bulkRecords.map((r: { object_repr: string; message: string }) => [r.object_repr, r.message]).sort()).toEqual([['Three', 'b'], ['Two', 'a']]);

    const patched = await t.request('PATCH', TENANTS, {
      body: bulk.body.map((r: { id: number }) => ({ id: r.id, description: 'changed', changelog_message: 'bulk edit' })),
    });
    const updates = await changes(`request_id=${patched.headers.get('x-request-id')}`);
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatchObject({ action: { value: 'update' }, message: 'bulk edit', prechange_data: { description: '' }, postchange_data: { description: 'changed' } });

    const deleted = await t.request('DELETE', `${TENANTS}${single.body.id}/`, { body: { changelog_message: 'gone' } });
    const [deletion] = await changes(`request_id=${deleted.headers.get('x-request-id')}`);
    expect(deletion).toMatchObject({ action: { value: 'delete' }, message: 'gone', changed_object: null, prechange_data: { name: 'One' } });
    expect(deletion.postchange_data).toBeNull();

    // Objects are found by the request that created or updated them.
    expect((await t.get(`${TENANTS}?created_by_request=${bulk.headers.get('x-request-id')}`)).body.count).toBe(2);
    expect((await t.get(`${TENANTS}?updated_by_request=${patched.headers.get('x-request-id')}`)).body.count).toBe(2);
    expect((await t.get(`${TENANTS}?created_by_request=${patched.headers.get('x-request-id')}`)).body.count).toBe(0);
  });

  it('writes no record when the write is rolled back', async () => {
    const before = (await t.get(CHANGES)).body.count;
    const failed = await t.post(TENANTS, [{ name: 'Kept?', slug: 'kept' }, { name: 'Bad' }]);
    expect(failed.status).toBe(400);
    const blocked = await t.request('PATCH', TENANTS, { body: [{ id: 999999, name: 'x' }, { slug: 'no id' }] });
    expect(blocked.status).toBe(400);
    expect((await t.get(CHANGES)).body.count).toBe(before);
    expect((await changes(`request_id=${failed.headers.get('x-request-id')}`))).toEqual([]);
  });

  it('logs cascaded deletes and the parent of an object', async () => {
    const { body: tenant } = await t.post(TENANTS, { name: 'Parent', slug: 'parent' });
    const { body: contact } = await t.post('/api/tenancy/contacts/', { name: 'Child contact' });
    const { body: assignment } = await t.post('/api/tenancy/contact-assignments/', { object_type: 'tenancy.tenant', object_id: tenant.id, contact: contact.id });
    const res = await t.request('DELETE', `${TENANTS}${tenant.id}/`);
    const records = await changes(`request_id=${res.headers.get('x-request-id')}`);
    expect(records.map((r: { changed_object_type: string }) => r.changed_object_type).sort()).toEqual(['tenancy.contactassignment', 'tenancy.tenant']);
    const [created] = await changes(`changed_object_type=tenancy.contactassignment&changed_object_id=${assignment.id}&action=create`);
    expect(created).toMatchObject({ related_object_type: 'tenancy.tenant', related_object_id: tenant.id });
  });

  it('filters by user, action and time, and is read-only', async () => {
    const reader = await t.createUser('reader', { superuser: true });
    await t.post(TENANTS, { name: 'By reader', slug: 'by-reader' }, { token: reader.token });
    expect((await changes('user=reader')).map((r: { object_repr: string }) => r.object_repr)).toEqual(['By reader']);
    expect(await changes(`user_id=${reader.id}&action=delete`)).toEqual([]);
    expect((await changes('time__gte=2000-01-01T00:00:00Z&action=create')).length).toBeGreaterThan(3);
    expect(await changes('time__lt=2000-01-01')).toEqual([]);
    expect((await t.post(CHANGES, {})).status).toBe(405);
    // NetBox 4.1+ clients read the same records under the core app.
    const core = await t.get('/api/core/object-changes/?action=create&limit=1');
    expect(core.body.count).toBe((await t.get(`${CHANGES}?action=create&limit=1`)).body.count);
    // The alias is listed in the core app's root, beside the core app's own endpoints.
    expect((await t.get('/api/core/')).body).toMatchObject({ 'object-changes': `${t.base}/api/core/object-changes/` });
    expect((await t.request('DELETE', `${CHANGES}1/`)).status).toBe(405);
  });

  it('records changes made on the command line, and housekeeping applies CHANGELOG_RETENTION', async () => {
    const db = t.server.db.knex;
    const url = (await db.raw('select current_database() as name')).rows[0].name as string;
    const adminUrl = new URL((t.server.settings.DATABASE_URL as string));
    adminUrl.pathname = `/${url}`;
    const env = { DATABASE_URL: adminUrl.toString() };
    expect((await manage(['createsuperuser', '--username', 'cli', '--password', 'from the command line'], env)).code).toBe(0);
    const [cli] = await changes('changed_object_type=users.user&action=create&user_name=');
    expect(cli).toMatchObject({ object_repr: 'cli', user: null, request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(cli.postchange_data).not.toHaveProperty('password');

    await db('extras_objectchange').update({ time: db.raw("now() - interval '100 days'") });
    await t.post(TENANTS, { name: 'Fresh', slug: 'fresh' });
    const kept = await manage(['housekeeping'], env);
    expect(kept.stdout).toMatch(/Deleted \d+ change records older than 90 days\.\nDeleted 0 webhook deliveries ended more than 30 days ago\./);
    expect((await t.get(CHANGES)).body.count).toBe(1);
  });
});
