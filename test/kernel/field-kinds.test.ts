import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectListBudget } from '../../testing/index.js';
import { dropFileDatabases, startServer, type TestServer } from '../helpers/server.js';

/** The plugin docs/plugins.md quotes in its field kind reference: every kind, declared once and used over HTTP. */
const KINDS = fileURLToPath(new URL('../fixtures/plugins/kinds/index.ts', import.meta.url));
const ITEMS = '/api/plugins/kinds/items/';
const SHELVES = '/api/plugins/kinds/shelves/';

let t: TestServer;
const ids: Record<string, number> = {};

const item = (name: string, more: Record<string, unknown> = {}) => ({ name, slug: name.toLowerCase().replace(/ /g, '-'), shelf: ids.shelf, ports: [], ...more });
const names = async (query: string) => {
  const res = await t.get(`${ITEMS}?${query}`);
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  return res.body.results.map((r: { name: string }) => r.name);
};

beforeAll(async () => {
  t = await startServer({ plugins: [KINDS] });
  ids.shelf = (await t.post(SHELVES, { name: 'A1' })).body.id;
  ids.site = (await t.post('/api/dcim/sites/', { name: 'Depot', slug: 'depot' })).body.id;
  ids.tenant = (await t.post('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' })).body.id;
  ids.tag = (await t.post('/api/extras/tags/', { name: 'Spare', slug: 'spare' })).body.id;
  const full = await t.post(ITEMS, item('Cable 10', {
    supplier_email: 'parts@example.com', datasheet: 'https://example.com/c.pdf', serial: '6f1c2a9e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
    color: 'ff0000', time_zone: 'Europe/Paris', asn: 4200000000, weight: '1.25', fragile: true, received: '2026-11-01',
    checked: '2026-11-02T10:00:00Z', specs: { length_m: 10 }, condition: 'used', site: ids.site, tags_by_slug: ['spare'],
    owner_type: 'tenancy.tenant', owner_id: ids.tenant, ports: [22, 443],
  }));
  expect(full.status, full.text).toBe(201);
  ids.full = full.body.id;
  for (const name of ['Cable 9', 'Cable 100']) expect((await t.post(ITEMS, item(name))).status).toBe(201);
});

afterAll(async () => {
  await t?.close();
  await dropFileDatabases();
});

describe('every field kind of the reference', () => {
  it('reads back what was written, each in its form', async () => {
    const { body } = await t.get(`${ITEMS}${ids.full}/`);
    expect(body).toMatchObject({
      name: 'Cable 10', slug: 'cable-10', notes: '', supplier_email: 'parts@example.com', datasheet: 'https://example.com/c.pdf',
      serial: '6f1c2a9e-3b4d-4e5f-8a9b-0c1d2e3f4a5b', color: 'ff0000', time_zone: 'Europe/Paris',
      // Defaults fill what the create left out; a big integer beyond 2^31 is whole.
      quantity: 1, asn: 4200000000, weight: 1.25, fragile: true, received: '2026-11-01', checked: '2026-11-02T10:00:00Z',
      specs: { length_m: 10 }, condition: { value: 'used', label: 'Used' },
      shelf: { id: ids.shelf, display: 'A1', name: 'A1' }, site: { id: ids.site, name: 'Depot', slug: 'depot' },
      tags_by_slug: ['spare'], owner_type: 'tenancy.tenant', owner_id: ids.tenant, owner: { id: ids.tenant, name: 'Acme' },
      photo: null, ports: [22, 443], display_name: 'Cable 10',
    });
    // `autoNowAdd` fills the creation time; `readOnly` ignores what a client sends.
    expect(Date.parse(body.registered)).toBeGreaterThan(Date.now() - 600_000);
    const patched = await t.patch(`${ITEMS}${ids.full}/`, { registered: '2000-01-01T00:00:00Z', notes: 'Checked.' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ registered: body.registered, notes: 'Checked.' });
    // The counted-on side: a reverse list in its nested form, a declared count and the foreign key's `countAs`.
    const shelf = (await t.get(`${SHELVES}${ids.shelf}/`)).body;
    expect(shelf).toMatchObject({ item_total: 3, item_count: 3 });
    expect(shelf.items.map((i: { name: string }) => i.name).sort()).toEqual(['Cable 10', 'Cable 100', 'Cable 9']);
    expect(Object.keys(shelf.items[0])).toEqual(['id', 'name']);
    // A tree: the parent nested, the depth counted.
    const lower = await t.post(SHELVES, { name: 'A1 lower', parent: ids.shelf });
    expect(lower.status).toBe(201);
    expect(lower.body).toMatchObject({ parent: { id: ids.shelf, name: 'A1' }, _depth: 1 });
  });

  it('refuses a bad value of each kind with its own message, writing nothing', async () => {
    const before = (await t.get(`${ITEMS}?limit=1`)).body.count;
    const res = await t.post(ITEMS, {
      name: 'Bad', slug: 'bad slug', supplier_email: 'nope', datasheet: 'not a url', serial: 'x', color: 'red', time_zone: 'Mars/Base',
      quantity: 2000, weight: '-1', received: '2026-13-01', checked: 'yesterday', specs: [1], condition: 'lost', shelf: 999999,
      owner_type: 'dcim.site', owner_id: ids.site, ports: [70000],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      slug: [expect.stringContaining('slug')],
      supplier_email: ['Enter a valid email address.'],
      datasheet: ['Enter a valid URL.'],
      serial: ['Must be a valid UUID.'],
      color: ['Enter a valid hexadecimal RGB color code.'],
      time_zone: ['Select a valid choice. Mars/Base is not one of the available choices.'],
      quantity: ['Ensure this value is less than or equal to 1000.'],
      weight: ['Ensure this value is greater than or equal to 0.'],
      received: [expect.stringContaining('Date has wrong format')],
      checked: [expect.stringContaining('Datetime has wrong format')],
      specs: [expect.stringContaining('JSON data must be in object form')],
      condition: ['lost is not a valid choice.'],
      shelf: ['Related object not found using the provided numeric ID: 999999'],
      // `models` limits what a generic relation may point at.
      owner_type: ['Invalid content type: dcim.site'],
      // A list's `item` judges each item.
      ports: ['70000 is not a port number.'],
    });
    expect((await t.get(`${ITEMS}?limit=1`)).body.count).toBe(before);
  });

  it('filters and orders each kind by what it declares', async () => {
    // `natural` orders numbers in names as people read them.
    expect(await names('ordering=name')).toEqual(['Cable 9', 'Cable 10', 'Cable 100']);
    expect(await names('condition=used')).toEqual(['Cable 10']);
    expect(await names('name__isw=cable 10')).toEqual(['Cable 10', 'Cable 100']);
    expect(await names('name__regex=^Cable [0-9]$')).toEqual(['Cable 9']);
    // A list's filter takes its `filter` name; a many-to-many field's its `filterName`.
    expect(await names('port=443')).toEqual(['Cable 10']);
    expect(await names('tag=spare')).toEqual(['Cable 10']);
    expect(await names(`tag_id=${ids.tag}`)).toEqual(['Cable 10']);
    expect(await names(`site_id=${ids.site}`)).toEqual(['Cable 10']);
    expect(await names('quantity__gte=1&fragile=true&weight__lt=2')).toEqual(['Cable 10']);
    expect(await names('received__gte=2026-10-01')).toEqual(['Cable 10']);
    expect(await names(`owner_type=tenancy.tenant&owner_id=${ids.tenant}`)).toEqual(['Cable 10']);
    // `search` reaches the serial as well as the name.
    expect(await names('q=6f1c2a9e')).toEqual(['Cable 10']);
    // `nullsFirst`: objects without a site come first when ordered by it.
    expect((await names('ordering=site'))[2]).toBe('Cable 10');
    const bad = await t.get(`${ITEMS}?condition=lost`);
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('condition');
  });

  it('describes each kind in OPTIONS, as its options say', async () => {
    const post = (await t.request('OPTIONS', ITEMS)).body.actions.POST;
    expect(post.name).toMatchObject({ type: 'string', required: true, help_text: 'As printed on its label.', max_length: 100 });
    expect(post.quantity).toMatchObject({ type: 'integer', required: false, min_value: 0, max_value: 1000 });
    expect(post.asn).toMatchObject({ type: 'integer', label: 'ASN' });
    expect(post.weight).toMatchObject({ type: 'decimal', min_value: 0, max_digits: 8, decimal_places: 2 });
    expect(post.registered).toMatchObject({ type: 'datetime', read_only: true });
    expect(post.condition.choices.map((c: { value: string }) => c.value)).toEqual(['new', 'used', 'broken']);
    expect(post.shelf).toMatchObject({ type: 'nested object', required: true });
  });

  it('offers related lists and unions in GraphQL under the names declared', async () => {
    const query = `{ shelf_list { name stock { name } } item_list(filters: { condition: CONDITION_USED }) { name owner { __typename ... on TenantType { name } } } }`;
    const res = await t.post('/graphql/', { query });
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.body.data.shelf_list[0].stock).toHaveLength(3);
    expect(res.body.data.item_list).toEqual([{ name: 'Cable 10', owner: { __typename: 'TenantType', name: 'Acme' } }]);
  });

  it('lists every kind in statements flat in the page size', async () => {
    // The first of each order has every relation, so that a page of one reads what a page of a thousand reads.
    const top = (await t.post(SHELVES, { name: '0 top', parent: ids.shelf })).body.id;
    const first = await t.post(ITEMS, item('Aardvark', { shelf: top, site: ids.site, tags_by_slug: ['spare'], owner_type: 'tenancy.tenant', owner_id: ids.tenant }));
    expect(first.status).toBe(201);
    await expectListBudget(t, ITEMS, 7);
    await expectListBudget(t, ITEMS, 2, { brief: true });
    await expectListBudget(t, SHELVES, 7);
  });
});
