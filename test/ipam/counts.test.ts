import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

const make = async (path: string, body: object) => {
  const res = await t.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
};

describe('the counts ipam brings to other models', () => {
  it('prefix_count of regions, site groups, sites and locations follows the prefix scope, per object as NetBox caches it', async () => {
    const region = await make('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
    const child = await make('/api/dcim/regions/', { name: 'Nordics', slug: 'nordics', parent: region.id });
    const group = await make('/api/dcim/site-groups/', { name: 'Edge', slug: 'edge' });
    const site = await make('/api/dcim/sites/', { name: 'Paris', slug: 'paris', region: region.id, group: group.id });
    const far = await make('/api/dcim/sites/', { name: 'Oslo', slug: 'oslo', region: child.id });
    const room = await make('/api/dcim/locations/', { name: 'Room', slug: 'room', site: site.id });
    const scoped = (prefix: string, type: string, id: number) => make('/api/ipam/prefixes/', { prefix, scope_type: type, scope_id: id });
    await scoped('10.0.0.0/16', 'dcim.region', region.id);
    await scoped('10.1.0.0/16', 'dcim.site', site.id);
    await scoped('10.2.0.0/16', 'dcim.location', room.id);
    await scoped('2001:db8::/32', 'dcim.site', far.id);
    await scoped('10.3.0.0/16', 'dcim.sitegroup', group.id);
    await make('/api/ipam/prefixes/', { prefix: '10.4.0.0/16' });

    const count = async (path: string, id: number) => (await t.get(`${path}${id}/`)).body.prefix_count;
    // The region's own, its site's and that site's location's; the child region's site counts for the child only.
    expect(await count('/api/dcim/regions/', region.id)).toBe(3);
    expect(await count('/api/dcim/regions/', child.id)).toBe(1);
    expect(await count('/api/dcim/site-groups/', group.id)).toBe(3);
    expect(await count('/api/dcim/sites/', site.id)).toBe(2);
    expect(await count('/api/dcim/sites/', far.id)).toBe(1);
    expect(await count('/api/dcim/locations/', room.id)).toBe(1);
    // Lists read the same numbers; a nested site leaves the count out.
    const listed = (await t.get('/api/dcim/sites/?ordering=name')).body.results as Body[];
    expect(listed.map((s) => [s.name, s.prefix_count])).toEqual([['Oslo', 1], ['Paris', 2]]);
    expect((await t.get(`/api/dcim/locations/${room.id}/`)).body.site).not.toHaveProperty('prefix_count');
  });

  it('site vlan_count, the tenant counts, and interface count_ipaddresses and count_fhrp_groups', async () => {
    const tenant = await make('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
    const site = await make('/api/dcim/sites/', { name: 'Lyon', slug: 'lyon', tenant: tenant.id });
    const vendor = await make('/api/dcim/manufacturers/', { name: 'V', slug: 'v' });
    const type = await make('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'T', slug: 't' });
    const role = await make('/api/dcim/device-roles/', { name: 'R', slug: 'r' });
    const device = await make('/api/dcim/devices/', { name: 'r1', device_type: type.id, role: role.id, site: site.id, tenant: tenant.id });
    await make('/api/dcim/racks/', { name: 'A1', site: site.id, tenant: tenant.id });
    const eth0 = await make('/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' });
    const eth1 = await make('/api/dcim/interfaces/', { device: device.id, name: 'eth1', type: '1000base-t' });
    await make('/api/ipam/vlans/', { vid: 10, name: 'ten', site: site.id, tenant: tenant.id });
    await make('/api/ipam/vlans/', { vid: 20, name: 'twenty', site: site.id });
    await make('/api/ipam/vrfs/', { name: 'Blue', tenant: tenant.id });
    await make('/api/ipam/prefixes/', { prefix: '192.0.2.0/24', tenant: tenant.id });
    for (const address of ['192.0.2.1/24', '2001:db8::1/64']) {
      await make('/api/ipam/ip-addresses/', { address, tenant: tenant.id, assigned_object_type: 'dcim.interface', assigned_object_id: eth0.id });
    }
    const fhrp = await make('/api/ipam/fhrp-groups/', { protocol: 'vrrp2', group_id: 1 });
    await make('/api/ipam/fhrp-group-assignments/', { group: fhrp.id, interface_type: 'dcim.interface', interface_id: eth0.id, priority: 100 });
    // The FHRP group's own virtual address is not the interface's.
    await make('/api/ipam/ip-addresses/', { address: '192.0.2.254/24', assigned_object_type: 'ipam.fhrpgroup', assigned_object_id: fhrp.id });

    expect((await t.get(`/api/dcim/sites/${site.id}/`)).body.vlan_count).toBe(2);
    expect((await t.get(`/api/tenancy/tenants/${tenant.id}/`)).body).toMatchObject({
      site_count: 1, rack_count: 1, device_count: 1, vlan_count: 1, vrf_count: 1, prefix_count: 1, ipaddress_count: 2,
    });
    const interfaces = (await t.get(`/api/dcim/interfaces/?device_id=${device.id}`)).body.results as Body[];
    expect(interfaces.map((i) => [i.name, i.count_ipaddresses, i.count_fhrp_groups])).toEqual([['eth0', 2, 1], ['eth1', 0, 0]]);
    expect((await t.get(`/api/dcim/interfaces/${eth1.id}/`)).body).toMatchObject({ count_ipaddresses: 0, count_fhrp_groups: 0 });
    // An FHRP group has no address count of its own: the field belongs to interfaces.
    expect((await t.get(`/api/ipam/fhrp-groups/${fhrp.id}/`)).body).not.toHaveProperty('count_ipaddresses');
  });
});
