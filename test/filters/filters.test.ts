import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLUGIN, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';
const WINDOWS = '/api/plugins/maintenance/windows/';
const id: Record<string, number> = {};

const names = async (path: string) => {
  const res = await t.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results.map((r: { name: string }) => r.name).sort();
};

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  const root = (await t.post('/api/tenancy/tenant-groups/', { name: 'Root', slug: 'root' })).body;
  const mid = (await t.post('/api/tenancy/tenant-groups/', { name: 'Mid', slug: 'mid', parent: root.id })).body;
  const leaf = (await t.post('/api/tenancy/tenant-groups/', { name: 'Leaf', slug: 'leaf', parent: mid.id })).body;
  const other = (await t.post('/api/tenancy/tenant-groups/', { name: 'Other', slug: 'other' })).body;
  Object.assign(id, { root: root.id, mid: mid.id, leaf: leaf.id, other: other.id });
  const tenants = await t.post(TENANTS, [
    { name: 'Alpha', slug: 'alpha', group: root.id, description: 'Core network' },
    { name: 'Beta', slug: 'beta', group: mid.id, description: 'edge' },
    { name: 'Gamma', slug: 'gamma', group: leaf.id, description: '' },
    { name: 'delta', slug: 'delta', group: other.id, description: 'core LAB' },
    { name: 'Epsilon', slug: 'epsilon' },
  ]);
  for (const r of tenants.body) id[r.name] = r.id;
  await t.post(WINDOWS, [
    { name: 'W1', starts: '2030-01-01T00:00:00Z', impact: 1, notify: true, tenant: id.Alpha, status: 'scheduled' },
    { name: 'W2', starts: '2030-02-01T00:00:00Z', ends: '2030-02-01T04:00:00Z', impact: 3, notify: false, tenant: id.Beta, status: 'completed' },
    { name: 'W3', starts: '2030-03-01T00:00:00Z', impact: 5, notify: false, status: 'cancelled' },
  ]);
  const groups = await t.post('/api/tenancy/contact-groups/', [{ name: 'Ops', slug: 'ops' }, { name: 'Sales', slug: 'sales' }]);
  const contacts = await t.post('/api/tenancy/contacts/', [
    { name: 'Ann', groups: [groups.body[0].id] },
    { name: 'Bob', groups: [groups.body[0].id, groups.body[1].id] },
    { name: 'Cid' },
  ]);
  await t.post('/api/tenancy/contact-assignments/', [
    { object_type: 'tenancy.tenant', object_id: id.Alpha, contact: contacts.body[0].id, priority: 'primary' },
    { object_type: 'maintenance.window', object_id: 1, contact: contacts.body[1].id },
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe('string lookups', () => {
  it('exact is case-sensitive; repeats OR; n excludes', async () => {
    expect(await names(`${TENANTS}?name=Alpha`)).toEqual(['Alpha']);
    expect(await names(`${TENANTS}?name=alpha`)).toEqual([]);
    expect(await names(`${TENANTS}?name=Alpha&name=Beta`)).toEqual(['Alpha', 'Beta']);
    expect(await names(`${TENANTS}?name__n=Alpha&name__n=Beta`)).toEqual(['Epsilon', 'Gamma', 'delta']);
  });

  it('ic, nic, isw, nisw, iew, niew, ie, nie', async () => {
    expect(await names(`${TENANTS}?description__ic=CORE`)).toEqual(['Alpha', 'delta']);
    expect(await names(`${TENANTS}?description__nic=core`)).toEqual(['Beta', 'Epsilon', 'Gamma']);
    expect(await names(`${TENANTS}?name__isw=AL`)).toEqual(['Alpha']);
    expect(await names(`${TENANTS}?name__nisw=a&name__nisw=b`)).toEqual(['Epsilon', 'Gamma', 'delta']);
    expect(await names(`${TENANTS}?name__iew=TA`)).toEqual(['Beta', 'delta']);
    expect(await names(`${TENANTS}?name__niew=a`)).toEqual(['Epsilon']);
    expect(await names(`${TENANTS}?name__ie=DELTA`)).toEqual(['delta']);
    expect(await names(`${TENANTS}?name__nie=delta`)).toEqual(['Alpha', 'Beta', 'Epsilon', 'Gamma']);
    expect(await names(`${TENANTS}?name__ic=%25`)).toEqual([]);
  });

  it('empty, regex and iregex', async () => {
    expect(await names(`${TENANTS}?description__empty=true`)).toEqual(['Epsilon', 'Gamma']);
    expect(await names(`${TENANTS}?description__empty=false`)).toEqual(['Alpha', 'Beta', 'delta']);
    expect(await names(`${TENANTS}?name__regex=^[A-B]`)).toEqual(['Alpha', 'Beta']);
    expect(await names(`${TENANTS}?name__iregex=^d`)).toEqual(['delta']);
  });
});

describe('numbers, dates, booleans and choices', () => {
  it('integer lookups', async () => {
    expect(await names(`${WINDOWS}?impact=3`)).toEqual(['W2']);
    expect(await names(`${WINDOWS}?impact__n=3`)).toEqual(['W1', 'W3']);
    expect(await names(`${WINDOWS}?impact__lt=3`)).toEqual(['W1']);
    expect(await names(`${WINDOWS}?impact__lte=3`)).toEqual(['W1', 'W2']);
    expect(await names(`${WINDOWS}?impact__gt=3`)).toEqual(['W3']);
    expect(await names(`${WINDOWS}?impact__gte=3`)).toEqual(['W2', 'W3']);
    expect(await names(`${WINDOWS}?impact=1&impact=5`)).toEqual(['W1', 'W3']);
  });

  it('datetime lookups, including empty, created and id', async () => {
    expect(await names(`${WINDOWS}?starts__gte=2030-02-01T00:00:00Z`)).toEqual(['W2', 'W3']);
    expect(await names(`${WINDOWS}?starts__lt=2030-02-01`)).toEqual(['W1']);
    expect(await names(`${WINDOWS}?starts=2030-03-01T01:00:00%2B01:00`)).toEqual(['W3']);
    expect(await names(`${WINDOWS}?ends__empty=true`)).toEqual(['W1', 'W3']);
    expect(await names(`${WINDOWS}?ends__empty=false`)).toEqual(['W2']);
    expect(await names(`${WINDOWS}?created__gte=2000-01-01T00:00:00Z&created__lte=2999-01-01`)).toEqual(['W1', 'W2', 'W3']);
    expect(await names(`${WINDOWS}?created__lt=2000-01-01`)).toEqual([]);
    expect(await names(`${TENANTS}?id=${id.Alpha}&id=${id.Beta}`)).toEqual(['Alpha', 'Beta']);
    expect(await names(`${TENANTS}?id__gt=${id.Gamma}`)).toEqual(['Epsilon', 'delta']);
    expect(await names(`${TENANTS}?last_updated__gte=2000-01-01T00:00:00Z&id__lte=${id.Alpha}`)).toEqual(['Alpha']);
  });

  it('booleans and choices', async () => {
    expect(await names(`${WINDOWS}?notify=true`)).toEqual(['W1']);
    expect(await names(`${WINDOWS}?notify=0`)).toEqual(['W2', 'W3']);
    expect(await names(`${WINDOWS}?status=completed&status=cancelled`)).toEqual(['W2', 'W3']);
    expect(await names(`${WINDOWS}?status__n=scheduled`)).toEqual(['W2', 'W3']);
    expect(await names(`${WINDOWS}?status__ic=CAN`)).toEqual(['W3']);
  });
});

describe('relations', () => {
  it('filter foreign keys by id and by slug or name, with null and n', async () => {
    expect(await names(`${WINDOWS}?tenant_id=${id.Alpha}`)).toEqual(['W1']);
    expect(await names(`${WINDOWS}?tenant=beta&tenant=alpha`)).toEqual(['W1', 'W2']);
    expect(await names(`${WINDOWS}?tenant_id=null`)).toEqual(['W3']);
    expect(await names(`${WINDOWS}?tenant_id=null&tenant_id=${id.Beta}`)).toEqual(['W2', 'W3']);
    expect(await names(`${WINDOWS}?tenant__n=alpha`)).toEqual(['W2', 'W3']);
  });

  it('match a tree node and its descendants, and ancestors on the tree itself', async () => {
    expect(await names(`${TENANTS}?group_id=${id.mid}`)).toEqual(['Beta', 'Gamma']);
    expect(await names(`${TENANTS}?group=root`)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await names(`${TENANTS}?group__n=mid`)).toEqual(['Alpha', 'Epsilon', 'delta']);
    expect(await names(`/api/tenancy/tenant-groups/?parent_id=${id.root}`)).toEqual(['Mid']);
    expect(await names('/api/tenancy/tenant-groups/?parent_id=null')).toEqual(['Other', 'Root']);
    expect(await names('/api/tenancy/tenant-groups/?ancestor=root')).toEqual(['Leaf', 'Mid']);
  });

  it('filter many-to-many and generic relations', async () => {
    expect(await names('/api/tenancy/contacts/?group=ops')).toEqual(['Ann', 'Bob']);
    expect(await names('/api/tenancy/contacts/?group=ops&group=sales')).toEqual(['Ann', 'Bob']);
    expect(await names('/api/tenancy/contacts/?group_id=null')).toEqual(['Cid']);
    const assignments = async (query: string) => (await t.get(`/api/tenancy/contact-assignments/?${query}`)).body.results.map((r: { contact: { name: string } }) => r.contact.name);
    expect(await assignments('object_type=tenancy.tenant')).toEqual(['Ann']);
    expect(await assignments(`object_type=tenancy.tenant&object_id=${id.Alpha}`)).toEqual(['Ann']);
    expect(await assignments('object_type__n=tenancy.tenant')).toEqual(['Bob']);
    expect(await assignments('priority=primary')).toEqual(['Ann']);
  });
});

describe('combinations, q and ordering', () => {
  it('ANDs different parameters', async () => {
    expect(await names(`${TENANTS}?group=root&description__ic=core`)).toEqual(['Alpha']);
    expect(await names(`${WINDOWS}?notify=false&impact__gte=4`)).toEqual(['W3']);
  });

  it('searches the declared search fields with q, across relations where declared', async () => {
    expect(await names(`${TENANTS}?q=CORE`)).toEqual(['Alpha', 'delta']);
    expect(await names(`${TENANTS}?q=`)).toHaveLength(5);
    expect((await t.get('/api/tenancy/contact-assignments/?q=bo')).body.count).toBe(1);
  });

  it('orders by related paths', async () => {
    const res = await t.get(`${TENANTS}?ordering=-group__name,name`);
    expect(res.body.results.map((r: { name: string }) => r.name)).toEqual(['Epsilon', 'Alpha', 'delta', 'Beta', 'Gamma']);
  });

  it('ignores unknown parameters, as NetBox does', async () => {
    expect(await names(`${TENANTS}?colour=red&name__bogus=x`)).toHaveLength(5);
  });
});

describe('cursor pagination', () => {
  it('pages by id from start, with a null count and no previous page', async () => {
    const first = await t.get(`${TENANTS}?start=0&limit=2`);
    expect(first.body.count).toBeNull();
    expect(first.body.previous).toBeNull();
    expect(first.body.results.map((r: { id: number }) => r.id)).toEqual([id.Alpha, id.Beta]);
    expect(first.body.next).toBe(`${t.base}${TENANTS}?start=${id.Beta + 1}&limit=2`);
    const last = await t.get(`${TENANTS}?start=${id.Epsilon}&limit=2`);
    expect(last.body.results.map((r: { id: number }) => r.id)).toEqual([id.Epsilon]);
    expect(last.body.next).toBeNull();
    expect((await t.get(`${TENANTS}?start=${id.Beta}&name__n=Gamma&limit=10`)).body.results).toHaveLength(3);
  });

  it('refuses a bad start or one combined with offset or ordering', async () => {
    expect((await t.get(`${TENANTS}?start=-1`)).body).toEqual({ start: ['Enter a non-negative whole number.'] });
    expect((await t.get(`${TENANTS}?start=1&offset=2`)).status).toBe(400);
    expect((await t.get(`${TENANTS}?start=1&ordering=name`)).body).toEqual({
      start: ['Cursor pagination (start) cannot be combined with offset or ordering.'],
    });
  });
});

describe('bad input', () => {
  it('answers 400 naming the parameter, never 500', async () => {
    const cases: [string, Record<string, string[]>][] = [
      [`${WINDOWS}?impact=high`, { impact: ['Enter a whole number.'] }],
      [`${WINDOWS}?impact__gt=1.5`, { impact__gt: ['Enter a whole number.'] }],
      [`${WINDOWS}?status=nope`, { status: ['Select a valid choice. nope is not one of the available choices.'] }],
      [`${WINDOWS}?starts__gte=yesterday`, { starts__gte: ['Enter a valid date/time.'] }],
      [`${WINDOWS}?notify=maybe`, { notify: ['Select a valid choice. maybe is not one of the available choices.'] }],
      [`${WINDOWS}?tenant_id=999`, { tenant_id: ['Select a valid choice. 999 is not one of the available choices.'] }],
      [`${WINDOWS}?tenant=nobody`, { tenant: ['Select a valid choice. nobody is not one of the available choices.'] }],
      [`${TENANTS}?id=abc`, { id: ['Enter a whole number.'] }],
      [`${TENANTS}?description__empty=perhaps`, { description__empty: ['Select a valid choice. perhaps is not one of the available choices.'] }],
      [`/api/tenancy/contact-assignments/?object_type=foo.bar`, { object_type: ['Select a valid choice. foo.bar is not one of the available choices.'] }],
    ];
    for (const [path, body] of cases) {
      const res = await t.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual(body);
    }
    const regex = await t.get(`${TENANTS}?name__regex=(unclosed`);
    expect(regex.status).toBe(400);
    expect(regex.body.name__regex[0]).toMatch(/^Invalid regular expression: /);
    const many = await t.get(`${TENANTS}?${Array.from({ length: 1001 }, (_, i) => `name=n${i}`).join('&')}`);
    expect(many.status).toBe(400);
    expect(many.body).toEqual({ name: ['Too many values: at most 1000.'] });
  });
});

describe('filters contributed by plugins', () => {
  it('apply to other plugins’ models through the extension point', async () => {
    const s = await startServer({ plugins: ['./test/fixtures/plugins/initials.ts'] });
    try {
      await s.post(TENANTS, [{ name: 'Apple', slug: 'apple' }, { name: 'avocado', slug: 'avocado' }, { name: 'Banana', slug: 'banana' }]);
      const res = await s.get(`${TENANTS}?initial=a&name__n=Apple`);
      expect(res.body.results.map((r: { name: string }) => r.name)).toEqual(['avocado']);
      expect((await s.get(`${TENANTS}?initial=ab`)).body).toEqual({ initial: ['Enter one letter.'] });
      expect((await s.get('/api/tenancy/contact-roles/?initial=z')).body.count).toBe(0);
    } finally {
      await s.close();
    }
  });
});
