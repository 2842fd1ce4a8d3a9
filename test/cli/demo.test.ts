import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { manage, manageOnTerminal } from '../helpers/cli.js';
import { freshDatabase, startServer, type Body } from '../helpers/server.js';

describe('manage generate-demo', () => {
  it('builds a data set that passes the API rules, set-based and idempotent, with a progress bar on a terminal', async () => {
    const env = { DATABASE_URL: await freshDatabase() };
    const first = await manage(['generate-demo', '--sites', '2', '--devices-per-site', '30'], env);
    expect(first.code, first.stderr).toBe(0);
    // Without a terminal, one line per step.
    expect(first.stderr).toMatch(/\[1\/\d+\] Regions and site groups: 14 rows/);
    expect(first.stderr).toMatch(/\] Devices in racks: 60 rows/);
    expect(first.stdout).toMatch(/^Demo data \(sites 2, devices-per-site 30, vms-per-site 20\): added [\d,]+ rows in [\d.]+ s\.\n$/);
    const again = await manage(['generate-demo', '--sites', '2', '--devices-per-site', '30'], env);
    expect(again.stdout).toMatch(/added 0 rows/);
    // Grown in parts of one site: the first alone, then two at once, each its own transaction, a line for each.
    const grown = await manage(['generate-demo', '--sites', '3', '--devices-per-site', '30', '--part', '1'], env);
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toMatch(/^sites 1–1 of 3: 0 rows \([\d.]+ s\)$/m);
    expect(grown.stderr).toMatch(/^sites 2–2 of 3: 0 rows \([\d.]+ s\)$/m);
    // Only what the third site adds; as many rows as site 2 had (two core routers' circuits aside, each site is alike).
    const third = /^sites 3–3 of 3: ([\d,]+) rows/m.exec(grown.stderr);
    expect(Number(third?.[1].replace(/,/g, ''))).toBeGreaterThan(2000);
    expect(grown.stderr).not.toMatch(/Regions and site groups/);
    // Built in parts from the start, the data is the same, table by table.
    const parted = { DATABASE_URL: await freshDatabase() };
    expect((await manage(['generate-demo', '--sites', '3', '--devices-per-site', '30', '--part', '1'], parted)).code).toBe(0);
    const tableRows = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const tables = (await client.query(`select tablename from pg_tables where schemaname = 'public' and tablename not like 'patchbay%' order by 1`)).rows.map((r: { tablename: string }) => r.tablename);
        const counts: Record<string, number> = {};
        for (const t of tables) counts[t] = Number((await client.query(`select count(*) from "${t}"`)).rows[0].count);
        return counts;
      } finally {
        await client.end();
      }
    };
    const whole = await tableRows(env.DATABASE_URL);
    expect(whole['dcim_interface']).toBeGreaterThan(1000);
    expect(await tableRows(parted.DATABASE_URL)).toEqual(whole);
    expect((await manage(['generate-demo', '--sites', '3', '--part', '0'], env)).stderr).toBe('--part: expected a whole number from 1 to 10000, got "0"\nSee: npm run -s manage -- generate-demo --help\n');

    expect((await manage(['generate-demo', '--sites', '0'], env)).stderr).toBe('--sites: expected a whole number from 1 to 10000, got "0"\nSee: npm run -s manage -- generate-demo --help\n');
    const unknown = await manage(['generate-demo', '--colour', 'red'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`Unknown option '--colour'\nSee: npm run -s manage -- generate-demo --help\n`);

    const onTerminal = await manageOnTerminal(['generate-demo', '--sites', '1', '--devices-per-site', '5'], [], env);
    expect(onTerminal.stdout).toContain('█');

    // The API serves it, and every device passes the write rules as it is.
    const t = await startServer({ settings: { DATABASE_URL: env.DATABASE_URL } });
    try {
      const devices = await t.get('/api/dcim/devices/?limit=1000');
      expect(devices.body.count).toBe(90);
      const interfaces = await t.get('/api/dcim/interfaces/?limit=1');
      expect(interfaces.body.count).toBeGreaterThan(90 * 15);
      const updates = devices.body.results.map((d: Body) => ({ id: d.id, description: 'checked' }));
      const checked = await t.request('PATCH', '/api/dcim/devices/', { body: updates });
      expect(checked.status, JSON.stringify(checked.body).slice(0, 500)).toBe(200);
      const router = devices.body.results.find((d: Body) => d.device_type.model === 'MX480');
      const routerInterfaces = (await t.get(`/api/dcim/interfaces/?device_id=${router.id}&limit=100`)).body.results.map((i: Body) => i.name);
      expect(routerInterfaces).toEqual(['et-0/0/0', 'et-0/0/1', 'et-0/0/2', ...routerInterfaces.slice(3, 12), 'et-1/0/0', ...routerInterfaces.slice(13, 24), 'fxp0']);
      expect((await t.get(`/api/dcim/racks/${router.rack.id}/elevation/`)).status).toBe(200);
      // Every rack fed A and B from its hall's panel.
      const racks = (await t.get('/api/dcim/racks/?limit=1')).body.count;
      expect((await t.get('/api/dcim/power-panels/')).body.results.map((p: Body) => p.name).slice(0, 2)).toEqual(['Panel A', 'Panel B']);
      expect((await t.get('/api/dcim/power-feeds/?limit=1')).body.count).toBe(racks * 2);
      expect((await t.get(`/api/dcim/racks/${router.rack.id}/`)).body.powerfeed_count).toBe(2);

      // Addressing for the same sites: containers, servers and management prefixes, a management address per device.
      const prefixes = await t.get('/api/ipam/prefixes/?limit=1000');
      expect(prefixes.body.count).toBe(9);
      expect(prefixes.body.results.slice(0, 2).map((p: Body) => [p.prefix, p.status.value, p._depth, p.children])).toEqual([
        ['10.0.4.0/22', 'container', 0, 1], ['10.0.4.0/24', 'active', 1, 0],
      ]);
      const management = await t.get('/api/ipam/ip-addresses/?vrf=65000:2&limit=1000');
      expect(management.body.count).toBe((await t.get('/api/dcim/devices/?interfaces=true&limit=1')).body.count);
      expect(management.body.results[0]).toMatchObject({ address: '100.64.1.1/24', vrf: { rd: '65000:2' }, assigned_object_type: 'dcim.interface' });
      const addresses = await t.get('/api/ipam/ip-addresses/?limit=1000');
      expect(addresses.body.count).toBe(management.body.count + 60);
      expect((await t.get('/api/ipam/vlans/?limit=1000')).body.count).toBe(6);

      // A cluster per site on four of its devices, running its virtual machines, each with an interface, a disk and its address.
      const clusters = await t.get('/api/virtualization/clusters/');
      expect(clusters.body.results.map((c: Body) => [c.name, c.device_count, c.virtualmachine_count])).toEqual([
        ['dc-0001-cluster', 4, 20], ['dc-0002-cluster', 4, 20], ['dc-0003-cluster', 4, 20],
      ]);
      const machines = await t.get('/api/virtualization/virtual-machines/?limit=1000');
      expect(machines.body.count).toBe(60);
      expect(machines.body.results[0]).toMatchObject({
        name: 'dc-0001-vm-0001', site: { slug: 'dc-0001' }, cluster: { name: 'dc-0001-cluster' }, disk: 40960, interface_count: 1, virtual_disk_count: 1,
        primary_ip4: { address: '10.0.5.1/24' },
      });

      // An internet circuit per site, from the site to its provider's backbone, in one group.
      const circuits = await t.get('/api/circuits/circuits/?limit=1000');
      expect(circuits.body.count).toBe(3);
      expect(circuits.body.results[0]).toMatchObject({
        cid: 'INET-dc-0002', provider: { slug: 'lumen' }, termination_a: { termination_type: 'dcim.site', termination: { slug: 'dc-0002' } },
        termination_z: { termination_type: 'circuits.providernetwork', termination: { name: 'Lumen backbone' } }, assignments: [{ priority: { value: 'primary' } }],
      });
      expect((await t.get('/api/dcim/sites/?slug=dc-0001')).body.results[0].circuit_count).toBe(1);
      // Cabling: servers to two leaves, leaves to the core through a pair of patch panels, the core to the circuit, power.
      const first = async (query: string) => (await t.get(`/api/dcim/interfaces/?site=dc-0001&${query}&limit=1`)).body.results[0] as Body;
      const names = async (path: string) =>
        ((await t.get(path)).body as Body[][]).map(([near, cable, far]) => [near.map((o: Body) => o.display), cable ? cable.type : null, far.map((o: Body) => o.display)]);
      const server = await first('name=eno1');
      expect(server).toMatchObject({ connected_endpoints_type: 'dcim.interface', connected_endpoints: [{ name: 'Ethernet1' }], connected_endpoints_reachable: true });
      const uplink = await first('name=Ethernet49/1');
      expect(await names(`/api/dcim/interfaces/${uplink.id}/trace/`)).toEqual([
        [['Ethernet49/1'], 'smf-os2', ['Port 1']], [['Rear'], 'mrj21-trunk', ['Rear']], [['Port 1'], 'smf-os2', ['et-0/0/0']],
      ]);
      const edge = await first('name=et-1/0/0');
      expect(await names(`/api/dcim/interfaces/${edge.id}/trace/`)).toEqual([
        [['et-1/0/0'], 'smf-os2', ['INET-dc-0001: Termination A']], [['INET-dc-0001: Termination Z'], null, ['Zayo backbone']],
      ]);
      expect(edge.connected_endpoints_type).toBe('circuits.providernetwork');
      // The first PDU (slot 21) is in the second rack, fed by its A feed.
      const pdu = (await t.get('/api/dcim/power-ports/?site=dc-0001&name=PSU1&device_role=pdu&limit=1')).body.results[0];
      expect(pdu).toMatchObject({ connected_endpoints_type: 'dcim.powerfeed', connected_endpoints: [{ name: 'R02-A' }] });
      const cables = await t.get('/api/dcim/cables/?limit=1000');
      expect((await t.get('/api/dcim/cables/?unterminated=true')).body.count).toBe(0);

      for (const [path, list] of [
        ['/api/ipam/prefixes/', prefixes], ['/api/ipam/ip-addresses/', addresses], ['/api/virtualization/virtual-machines/', machines], ['/api/circuits/circuits/', circuits],
        ['/api/dcim/cables/', cables],
      ] as const) {
        const patched = await t.request('PATCH', path, { body: list.body.results.map((o: Body) => ({ id: o.id, description: 'checked' })) });
        expect(patched.status, JSON.stringify(patched.body).slice(0, 500)).toBe(200);
      }
    } finally {
      await t.close();
    }
  }, 120_000);
});
