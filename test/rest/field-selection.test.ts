import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenancy } from '../helpers/seed.js';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/tenancy';

beforeAll(async () => {
  t = await startServer();
  await seedTenancy(t.server.db.knex, 20);
});
afterAll(async () => {
  await t?.close();
});

const queries = async (path: string) => {
  let body: { results?: Record<string, unknown>[] } & Record<string, unknown> = {};
  const count = await t.countQueries(async () => {
    const res = await t.get(path);
    expect(res.status, res.text).toBe(200);
    body = res.body;
  });
  return { count, body };
};

describe('field selection', () => {
  it('?fields= renders only the named keys, and computes nothing else', async () => {
    const full = await queries(`${API}/tenant-groups/?limit=5`);
    const some = await queries(`${API}/tenant-groups/?limit=5&fields=id,name,tenant_count`);
    expect(Object.keys(some.body.results![0])).toEqual(['id', 'name', 'tenant_count']);
    expect(some.body.results!.map((r) => r.name)).toEqual(full.body.results!.map((r) => r.name));
    const bare = await queries(`${API}/tenant-groups/?limit=5&fields=id,name`);
    // The token and the page with its count: no parent, tags, custom fields, depth or tenant counts.
    expect(bare.count).toBe(2);
    expect(some.count).toBe(3);
    // The parent (its depth selected with it), the tags and the depth (no custom field is defined).
    expect(full.count).toBe(some.count + 3);
    // Repeated or comma-separated, on details too.
    const detail = await t.get(`${API}/tenants/1/?fields=name&fields=slug,group`);
    expect(Object.keys(detail.body)).toEqual(['name', 'slug', 'group']);
  });

  it('?omit= and ?exclude= leave keys out, and their cost with them', async () => {
    const full = await queries(`${API}/tenants/?limit=5`);
    const lean = await queries(`${API}/tenants/?limit=5&omit=tags,custom_fields,group`);
    expect(Object.keys(lean.body.results![0])).toEqual([
      'id', 'url', 'display_url', 'display', 'name', 'slug', 'description', 'comments', 'created', 'last_updated',
      // What the other apps count of a tenant.
      'site_count', 'rack_count', 'device_count', 'vrf_count', 'vlan_count', 'prefix_count', 'ipaddress_count', 'cluster_count', 'virtualmachine_count', 'circuit_count',
    ]);
    // The group (its depth selected with it) and the tags (no custom field is defined).
    expect(lean.count).toBe(full.count - 2);
    // `exclude=config_context` (devices and virtual machines in NetBox) is accepted everywhere.
    expect((await queries(`${API}/tenants/?limit=5&exclude=config_context`)).body.results).toEqual(full.body.results);
    expect(Object.keys((await t.get(`${API}/tenants/1/?exclude=comments`)).body)).not.toContain('comments');
  });

  it('selects single keys of a field with several (a generic relation) and applies within brief', async () => {
    const typed = await queries(`${API}/contact-assignments/?limit=5&fields=id,object_type,object_id`);
    expect(typed.body.results![0]).toEqual({ id: 1, object_type: 'tenancy.tenant', object_id: 1 });
    const nested = await queries(`${API}/contact-assignments/?limit=5&fields=id,object`);
    expect(nested.body.results![0]).toEqual({ id: 1, object: expect.objectContaining({ id: 1, name: 'Tenant 1' }) });
    expect(nested.count).toBeGreaterThan(typed.count);
    const brief = await t.get(`${API}/tenants/?brief=1&limit=1&omit=url`);
    expect(Object.keys(brief.body.results[0])).toEqual(['id', 'display', 'name', 'slug', 'description']);
  });

  it('answers unknown names with a 400 naming the parameter', async () => {
    const res = await t.get(`${API}/tenants/?fields=name,colour&omit=size,weight&exclude=nope`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ fields: ['Unknown field: colour.'], omit: ['Unknown fields: size, weight.'], exclude: ['Unknown field: nope.'] });
    expect((await t.get(`${API}/tenants/1/?fields=password`)).status).toBe(400);
  });
});
