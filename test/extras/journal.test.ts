import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const JOURNAL = '/api/extras/journal-entries/';

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('journal entries', () => {
  it('attach to any object with the journal feature, recording who wrote them', async () => {
    const { body: tenant } = await t.post('/api/tenancy/tenants/', { name: 'Logged', slug: 'logged' });
    const res = await t.post(JOURNAL, { assigned_object_type: 'tenancy.tenant', assigned_object_id: tenant.id, comments: 'Called the customer', created_by: 999 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      assigned_object_type: 'tenancy.tenant',
      assigned_object_id: tenant.id,
      assigned_object: { id: tenant.id, name: 'Logged' },
      created_by: { id: t.admin.id, username: 'admin' },
      kind: { value: 'info', label: 'Info' },
      comments: 'Called the customer',
      display: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d \(Info\)$/),
    });
    await t.post(JOURNAL, { assigned_object_type: 'tenancy.tenant', assigned_object_id: tenant.id, comments: 'Escalated', kind: 'danger' });
    const list = await t.get(`${JOURNAL}?assigned_object_type=tenancy.tenant&assigned_object_id=${tenant.id}&kind=danger`);
    expect(list.body.results.map((j: { comments: string }) => j.comments)).toEqual(['Escalated']);
    const [change] = (await t.get(`/api/extras/object-changes/?request_id=${res.headers.get('x-request-id')}`)).body.results;
    expect(change).toMatchObject({ related_object_type: 'tenancy.tenant', related_object_id: tenant.id });

    expect((await t.post(JOURNAL, { assigned_object_type: 'users.group', assigned_object_id: 1, comments: 'x' })).body).toEqual({
      assigned_object_type: ['Invalid content type: users.group'],
    });
    expect((await t.post(JOURNAL, { assigned_object_type: 'tenancy.tenant', assigned_object_id: tenant.id })).body).toEqual({
      comments: ['This field is required.'],
    });
    await t.request('DELETE', `/api/tenancy/tenants/${tenant.id}/`);
    expect((await t.get(JOURNAL)).body.count).toBe(0);
  });
});
