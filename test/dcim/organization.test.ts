import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';
const names = (reply: { body: { results: { name: string }[] } }) => reply.body.results.map((r) => r.name);

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('regions and site groups (trees)', () => {
  it('list in tree order, count sites cumulatively and filter by ancestor', async () => {
    const { body: europe } = await t.post(`${API}/regions/`, { name: 'Europe', slug: 'europe' });
    const { body: asia } = await t.post(`${API}/regions/`, { name: 'Asia', slug: 'asia' });
    const { body: france } = await t.post(`${API}/regions/`, { name: 'France', slug: 'france', parent: europe.id });
    const { body: austria } = await t.post(`${API}/regions/`, { name: 'Austria', slug: 'austria', parent: { slug: 'europe' } });
    const { body: paris } = await t.post(`${API}/regions/`, { name: 'Paris', slug: 'paris', parent: france.id });
    // Depth-first, siblings by name: NetBox's MPTT order, not alphabetical.
    expect(names(await t.get(`${API}/regions/`))).toEqual(['Asia', 'Europe', 'Austria', 'France', 'Paris']);
    expect(names(await t.get(`${API}/regions/?ordering=-parent`))).toEqual(['Paris', 'France', 'Austria', 'Europe', 'Asia']);
    expect(names(await t.get(`${API}/regions/?ordering=name`))).toEqual(['Asia', 'Austria', 'Europe', 'France', 'Paris']);

    await t.post(`${API}/sites/`, [
      { name: 'PAR1', slug: 'par1', region: paris.id },
      { name: 'VIE1', slug: 'vie1', region: austria.id },
      { name: 'SIN1', slug: 'sin1', region: { slug: 'asia' } },
    ]);
    const region = async (id: number) => (await t.get(`${API}/regions/${id}/`)).body;
    expect(await region(europe.id)).toMatchObject({ site_count: 2, _depth: 0 });
    expect(await region(france.id)).toMatchObject({ site_count: 1, _depth: 1, parent: { id: europe.id, slug: 'europe', site_count: 0, _depth: 0 } });
    expect(await region(paris.id)).toMatchObject({ site_count: 1, _depth: 2 });
    expect(Object.keys((await region(paris.id)).parent)).toEqual(['id', 'url', 'display_url', 'display', 'name', 'slug', 'site_count', '_depth']);
    expect(Object.keys((await t.get(`${API}/regions/${paris.id}/?brief=1`)).body)).toEqual(['id', 'url', 'display', 'name', 'slug', 'description', 'site_count', '_depth']);

    // NetBox's ancestor filter: objects whose parent is the node or one of its descendants.
    expect(names(await t.get(`${API}/regions/?ancestor=europe`))).toEqual(['Austria', 'France', 'Paris']);
    expect(names(await t.get(`${API}/regions/?parent_id=${europe.id}`))).toEqual(['Austria', 'France']);
    expect(names(await t.get(`${API}/sites/?region=europe`))).toEqual(['PAR1', 'VIE1']);
    expect(names(await t.get(`${API}/sites/?region_id=${france.id}`))).toEqual(['PAR1']);
    expect(names(await t.get(`${API}/sites/?region_id=${asia.id}&region_id=${paris.id}`))).toEqual(['PAR1', 'SIN1']);
    expect((await t.get(`${API}/sites/?region=atlantis`)).body).toEqual({ region: ['Select a valid choice. atlantis is not one of the available choices.'] });
  });

  it('keeps names unique among siblings and at the top, and refuses cycles', async () => {
    const { body: top } = await t.post(`${API}/site-groups/`, { name: 'Customers', slug: 'customers' });
    expect((await t.post(`${API}/site-groups/`, { name: 'Customers', slug: 'customers-2' })).body).toEqual({
      __all__: ['A top-level site group with this name already exists.'],
    });
    const { body: child } = await t.post(`${API}/site-groups/`, { name: 'Retail', slug: 'retail', parent: top.id });
    expect((await t.post(`${API}/site-groups/`, { name: 'Retail', slug: 'retail-2', parent: top.id })).body).toEqual({
      __all__: ['Site group with this Parent and Name already exists.'],
    });
    // The same name under another parent is fine.
    expect((await t.post(`${API}/site-groups/`, { name: 'Retail', slug: 'retail' })).status).toBe(201);
    expect((await t.request('PATCH', `${API}/site-groups/${top.id}/`, { body: { parent: child.id } })).body).toEqual({
      parent: ['Cannot assign self or child Site Group as parent.'],
    });
  });
});

describe('sites', () => {
  it('round-trip every field, with statuses, time zones and coordinates checked', async () => {
    const { body: tenant } = await t.post('/api/tenancy/tenants/', { name: 'Site owner', slug: 'site-owner' });
    const created = await t.post(`${API}/sites/`, {
      name: 'DC1', slug: 'dc1', status: 'reserved', tenant: { name: 'Site owner' }, facility: 'Hall 3', time_zone: 'Europe/Paris',
      physical_address: '1 Rue X', latitude: 48.856613, longitude: 2.352222, tags: [], custom_fields: {},
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      display: 'DC1', status: { value: 'reserved', label: 'Reserved' }, region: null, group: null,
      tenant: { id: tenant.id, name: 'Site owner', slug: 'site-owner' }, time_zone: 'Europe/Paris', latitude: 48.856613, longitude: 2.352222,
      shipping_address: '', comments: '',
    });
    const post = (body: object) => t.post(`${API}/sites/`, { name: 'Bad', slug: 'bad', ...body });
    expect((await post({ status: 'gone' })).body).toEqual({ status: ['gone is not a valid choice.'] });
    expect((await post({ time_zone: 'Mars/Olympus' })).body).toEqual({ time_zone: ['Select a valid choice. Mars/Olympus is not one of the available choices.'] });
    expect((await post({ latitude: 91 })).body).toEqual({ latitude: ['Ensure this value is less than or equal to 90.'] });
    expect((await post({ longitude: -180.5 })).body).toEqual({ longitude: ['Ensure this value is greater than or equal to -180.'] });
    expect((await post({ latitude: 1.1234567 })).body).toEqual({ latitude: ['Ensure that there are no more than 6 decimal places.'] });
    expect((await post({ name: 'DC1' })).body).toEqual({ name: ['site with this name already exists.'] });
    // Every unique rule a write breaks is reported, each under its field, as NetBox does.
    const slug = (created.body as { slug: string }).slug;
    expect((await post({ name: 'DC1', slug })).body).toEqual({ name: ['site with this name already exists.'], slug: ['site with this slug already exists.'] });
    expect((await t.post(`${API}/sites/`, [{ name: 'Other', slug: 'other' }, { name: 'DC1', slug }])).body).toEqual([
      {}, { name: ['site with this name already exists.'], slug: ['site with this slug already exists.'] },
    ]);
    expect((await t.get(`${API}/sites/?slug=bad`)).body.count).toBe(0);

    // The contract's attribute-set write: a region named by its slug.
    const { body: region } = await t.post(`${API}/regions/`, { name: 'Benelux', slug: 'benelux' });
    const moved = await t.request('PATCH', `${API}/sites/${created.body.id}/`, { body: { region: { slug: 'benelux' }, status: 'planned' } });
    expect(moved.body).toMatchObject({ region: { id: region.id, slug: 'benelux' }, status: { value: 'planned' } });
    expect((await t.request('PATCH', `${API}/sites/${created.body.id}/`, { body: { region: { slug: 'nowhere' } } })).status).toBe(400);

    expect(names(await t.get(`${API}/sites/?tenant=site-owner`))).toEqual(['DC1']);
    expect(names(await t.get(`${API}/sites/?q=hall`))).toEqual(['DC1']);
    expect(names(await t.get(`${API}/sites/?status=planned&time_zone=Europe/Paris`))).toEqual(['DC1']);
  });
});

describe('locations', () => {
  it('nest within one site, count cumulatively and filter by region and site group', async () => {
    const { body: group } = await t.post(`${API}/site-groups/`, { name: 'Colo', slug: 'colo' });
    const { body: region } = await t.post(`${API}/regions/`, { name: 'Nordics', slug: 'nordics' });
    const { body: sites } = await t.post(`${API}/sites/`, [
      { name: 'OSL1', slug: 'osl1', group: group.id, region: region.id },
      { name: 'STO1', slug: 'sto1' },
    ]);
    const { body: floor } = await t.post(`${API}/locations/`, { name: 'Floor 1', slug: 'floor-1', site: sites[0].id });
    const { body: room } = await t.post(`${API}/locations/`, { name: 'Room A', slug: 'room-a', site: sites[0].id, parent: floor.id });
    expect(room).toMatchObject({ _depth: 1, parent: { id: floor.id, name: 'Floor 1', _depth: 0 }, site: { id: sites[0].id, slug: 'osl1' }, status: { value: 'active' } });

    const wrong = await t.post(`${API}/locations/`, { name: 'Cage', slug: 'cage', site: sites[1].id, parent: floor.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ __all__: ['Parent location (Floor 1) must belong to the same site (STO1).'] });
    // The same name at the top of another site is fine; twice in one site is not.
    expect((await t.post(`${API}/locations/`, { name: 'Floor 1', slug: 'floor-1', site: sites[1].id })).status).toBe(201);
    expect((await t.post(`${API}/locations/`, { name: 'Floor 1', slug: 'floor-1b', site: sites[0].id })).body).toEqual({
      __all__: ['A location with this name already exists within the specified site.'],
    });

    expect(names(await t.get(`${API}/locations/?site_group=colo`))).toEqual(['Floor 1', 'Room A']);
    expect(names(await t.get(`${API}/locations/?region_id=${region.id}&parent_id=${floor.id}`))).toEqual(['Room A']);
    expect(names(await t.get(`${API}/locations/?ancestor_id=${floor.id}`))).toEqual(['Room A']);
    expect((await t.get(`${API}/locations/?site=sto1`)).body.results.map((l: { site: { slug: string } }) => l.site.slug)).toEqual(['sto1']);
  });
});

describe('manufacturers, rack roles, device roles and platforms', () => {
  it('validate colours, nest roles and keep platform names unique per manufacturer', async () => {
    expect((await t.post(`${API}/rack-roles/`, { name: 'Network', slug: 'network', color: 'ZZZZZZ' })).body).toEqual({
      color: ['Enter a valid hexadecimal RGB color code.'],
    });
    const { body: role } = await t.post(`${API}/rack-roles/`, { name: 'Network', slug: 'network' });
    expect(role).toMatchObject({ color: '9e9e9e' });

    const { body: core } = await t.post(`${API}/device-roles/`, { name: 'Core', slug: 'core', color: 'ff0000' });
    const { body: spine } = await t.post(`${API}/device-roles/`, { name: 'Spine', slug: 'spine', parent: core.id, vm_role: false });
    expect(spine).toMatchObject({ vm_role: false, _depth: 1, color: '9e9e9e' });
    // NetBox nests a role's parent in its short form.
    expect(Object.keys(spine.parent)).toEqual(['id', 'url', 'display_url', 'display', 'name']);
    expect(names(await t.get(`${API}/device-roles/?ancestor=core`))).toEqual(['Spine']);

    const { body: vendors } = await t.post(`${API}/manufacturers/`, [
      { name: 'Juniper', slug: 'juniper' },
      { name: 'Arista', slug: 'arista' },
    ]);
    await t.post(`${API}/platforms/`, { name: 'EOS', slug: 'eos', manufacturer: vendors[1].id });
    expect((await t.post(`${API}/platforms/`, { name: 'EOS', slug: 'eos-2', manufacturer: vendors[1].id })).body).toEqual({
      __all__: ['Platform with this Manufacturer and Name already exists.'],
    });
    expect((await t.post(`${API}/platforms/`, { name: 'EOS', slug: 'eos' })).status).toBe(201);
    expect((await t.post(`${API}/platforms/`, { name: 'EOS', slug: 'eos-3' })).body).toEqual({ __all__: ['Platform name must be unique.'] });
    expect((await t.get(`${API}/manufacturers/${vendors[1].id}/`)).body.platform_count).toBe(1);
    expect(names(await t.get(`${API}/platforms/?manufacturer=arista`))).toEqual(['EOS']);
    // A manufacturer with platforms cannot be deleted.
    expect((await t.request('DELETE', `${API}/manufacturers/${vendors[1].id}/`)).status).toBe(409);
    expect(names(await t.get(`${API}/manufacturers/`))).toEqual(['Arista', 'Juniper']);
  });
});
