import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStatements } from '../helpers/budgets.js';
import { EXAMPLE_PLUGIN, startServer, type Reply, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';
const WINDOWS = '/api/plugins/maintenance/windows/';

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  await t.post('/api/extras/tags/', [{ name: 'Gold', slug: 'gold' }, { name: 'Edge', slug: 'edge' }]);
  await t.post('/api/extras/custom-fields/', [
    { name: 'cost', type: 'integer', object_types: ['tenancy.tenant'] },
    { name: 'code', type: 'text', unique: true, object_types: ['tenancy.tenant'] },
    { name: 'owner', type: 'object', related_object_type: 'users.user', object_types: ['tenancy.tenant'] },
  ]);
  await t.post('/api/tenancy/tenant-groups/', { name: 'Group', slug: 'group' });
});
afterAll(async () => {
  await t?.close();
});

let serial = 0;

const statements = (status: number, send: () => Promise<Reply>) => writeStatements(t, status, send);

/**
 * Statements per write request (the token lookup, BEGIN and COMMIT included): the same for 1 and for 100
 * objects, every related object, tag, custom field value, unique check, change record and rendered nested
 * object loaded or written for all of them at once. No event rule or plugin wants tenants' events, so no event is
 * rendered or stored; a unique custom field takes a lock while it is checked.
 * A delete asks each table that refers to tenants once (dcim's sites, locations, racks, reservations, devices, contexts, power feeds,
 * virtualization's clusters and virtual machines, circuits' circuits, groups and virtual circuits).
 */
// Deleting a tenant checks what protects it: cables' tenant among them.
const BUDGETS = { create: 16, update: 20, delete: 24 };

describe('write query budgets', () => {
  it(`bulk create, update and delete of tenants with tags, custom fields and relations run ${BUDGETS.create}, ${BUDGETS.update} and ${BUDGETS.delete} statements for 1 or 100 objects`, async () => {
    const counts: Record<string, number[]> = { create: [], update: [], delete: [] };
    for (const size of [1, 100]) {
      const bodies = Array.from({ length: size }, () => {
        const n = serial++;
        return { name: `T${n}`, slug: `t${n}`, group: { slug: 'group' }, tags: [{ slug: 'gold' }, 2], custom_fields: { cost: n, code: `c${n}`, owner: t.admin.id } };
      });
      const created = await statements(201, () => t.post(TENANTS, bodies));
      counts.create.push(created.count);
      expect(created.reply.body).toHaveLength(size);
      expect(created.reply.body[size - 1]).toMatchObject({ group: { slug: 'group' }, tags: [{ slug: 'edge' }, { slug: 'gold' }], custom_fields: { owner: { id: t.admin.id } } });
      const ids: number[] = created.reply.body.map((r: { id: number }) => r.id);
      const updated = await statements(200, () =>
        t.request('PATCH', TENANTS, { body: ids.map((id, i) => ({ id, description: `d${i}`, tags: [{ slug: 'edge' }], custom_fields: { cost: -i } })) }),
      );
      counts.update.push(updated.count);
      expect(updated.reply.body.map((r: { description: string }) => r.description)).toEqual(ids.map((_, i) => `d${i}`));
      counts.delete.push((await statements(204, () => t.request('DELETE', TENANTS, { body: ids.map((id) => ({ id })) }))).count);
    }
    if (process.env.SHOW_QUERIES) console.log(counts);
    expect(counts).toEqual({ create: [BUDGETS.create, BUDGETS.create], update: [BUDGETS.update, BUDGETS.update], delete: [BUDGETS.delete, BUDGETS.delete] });
    // Every object got its change record.
    const changes = (await t.get('/api/extras/object-changes/?changed_object_type=tenancy.tenant&limit=1')).body.count;
    expect(changes).toBe(101 * 3);
  });

  // The example plugin wants windows' creates: the write hands its events over in its own transaction.
  it('a hook creating derived objects (a checklist per window) stays flat too: one statement for all of them', async () => {
    const counts: number[] = [];
    for (const size of [1, 50]) {
      // Without `notify`: no announcement job runs (and queries) beside the request.
      const bodies = Array.from({ length: size }, () => ({ name: `W${serial++}`, starts: '2030-01-01T00:00:00Z', notify: false }));
      const { count, reply } = await statements(201, () => t.post(WINDOWS, bodies));
      counts.push(count);
      expect(reply.body.every((w: { task_count: number }) => w.task_count === 3)).toBe(true);
    }
    expect(counts[0]).toBe(counts[1]);
  });
});
