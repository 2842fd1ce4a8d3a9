import type { Db } from '../kernel/base/types.js';

/** A POST (or PATCH) to Patchbay's API that must succeed, answering the created objects. */
export type Api = <T = { id: number }>(path: string, body: unknown, method?: string) => Promise<T>;
type Created = { id: number };

const ends = (object_type: string, ...ids: number[]) => ids.map((object_id) => ({ object_type, object_id }));

/**
 * Cabling beside the demo's, through the API (so paths are traced as any client's are), on devices named to sort
 * before the demo's: a path of 10 cables through 9 patch panels (interface, front port, rear port, rear port, front
 * port, …, rear port, interface), an interface on a circuit to a provider network, a planned cable, a path ending at
 * a patch panel's uncabled rear port, a cable with two interfaces at each end (one bridged to another of them, one in
 * a LAG) and addresses sorting first on four of them. Answers the interface the 10-cable path starts at.
 */
export async function cablingFixtures(api: Api, db: Db): Promise<number> {
  const first = async (table: string) => ((await db(table).orderBy('id').first('id')) as Created).id;
  const [site, role, manufacturer] = await Promise.all(['dcim_site', 'dcim_devicerole', 'dcim_manufacturer'].map(first));
  const [panelType, switchType] = await api<Created[]>('/api/dcim/device-types/', [
    { manufacturer, model: 'Bench panel', slug: 'bench-panel' }, { manufacturer, model: 'Bench switch', slug: 'bench-switch' },
  ]);
  const [device, ...panels] = await api<Created[]>('/api/dcim/devices/', [
    { name: 'bench-a', device_type: switchType.id, role, site },
    ...Array.from({ length: 10 }, (_, n) => ({ name: `bench-panel-${n + 1}`, device_type: panelType.id, role, site })),
  ]);
  const ifs = (await api<Created[]>('/api/dcim/interfaces/', Array.from({ length: 10 }, (_, n) => ({ device: device.id, name: `xe-0/0/${n}`, type: '10gbase-x-sfpp' })))).map((i) => i.id);
  const rears = (await api<Created[]>('/api/dcim/rear-ports/', panels.map((p) => ({ device: p.id, name: 'Rear 1', type: 'lc' })))).map((r) => r.id);
  const fronts = (await api<Created[]>('/api/dcim/front-ports/', panels.map((p, n) => ({ device: p.id, name: 'Front 1', label: n % 2 ? 'to core' : '', type: 'lc', rear_port: rears[n] })))).map((f) => f.id);

  // The 10-cable path: into panel n by its front port and out by its rear port (n even), or the other way round.
  const hops: [string, number][][] = [];
  let at: [string, number] = ['dcim.interface', ifs[0]];
  for (let n = 0; n < 9; n++) {
    const front = n % 2 === 0;
    hops.push([at, front ? ['dcim.frontport', fronts[n]] : ['dcim.rearport', rears[n]]]);
    at = front ? ['dcim.rearport', rears[n]] : ['dcim.frontport', fronts[n]];
  }
  hops.push([at, ['dcim.interface', ifs[1]]]);
  await api('/api/dcim/cables/', hops.map(([[ta, a], [tb, b]], n) => ({
    a_terminations: ends(ta, a), b_terminations: ends(tb, b), type: n % 2 ? 'smf-os2' : null, label: n % 3 ? '' : `trace-${n}`,
    color: 'ffff00', length: n % 2 ? 2.5 : null, length_unit: n % 2 ? 'm' : null,
  })));

  const provider = await api('/api/circuits/providers/', { name: 'Bench carrier', slug: 'bench-carrier' });
  const network = await api('/api/circuits/provider-networks/', { provider: provider.id, name: 'Bench backbone' });
  const circuitType = await api('/api/circuits/circuit-types/', { name: 'Bench transit', slug: 'bench-transit' });
  const circuit = await api('/api/circuits/circuits/', { provider: provider.id, cid: 'BENCH-1', type: circuitType.id });
  const [termination] = await api<Created[]>('/api/circuits/circuit-terminations/', [
    { circuit: circuit.id, term_side: 'A', termination_type: 'dcim.site', termination_id: site },
    { circuit: circuit.id, term_side: 'Z', termination_type: 'circuits.providernetwork', termination_id: network.id },
  ]);
  const lag = await api('/api/dcim/interfaces/', { device: device.id, name: 'ae0', type: 'lag' });
  await api('/api/dcim/cables/', [
    { a_terminations: ends('dcim.interface', ifs[2]), b_terminations: ends('circuits.circuittermination', termination.id) },
    { a_terminations: ends('dcim.interface', ifs[3]), b_terminations: ends('dcim.interface', ifs[4]), status: 'planned' },
    // Panel 10's rear port stays uncabled: an incomplete path.
    { a_terminations: ends('dcim.interface', ifs[5]), b_terminations: ends('dcim.frontport', fronts[9]) },
    { a_terminations: ends('dcim.interface', ifs[6], ifs[7]), b_terminations: ends('dcim.interface', ifs[8], ifs[9]), label: 'pair', description: 'two at each end' },
  ]);
  await api('/api/dcim/interfaces/', [{ id: ifs[8], bridge: ifs[6] }, { id: ifs[9], lag: lag.id }], 'PATCH');
  await api('/api/ipam/ip-addresses/', [ifs[0], ifs[2], ifs[3], ifs[5]].map((id, n) => ({ address: `1.1.1.${n + 1}/32`, assigned_object_type: 'dcim.interface', assigned_object_id: id })));
  return ifs[0];
}

/**
 * `count` free interfaces for the cable writes, in SQL on fresh devices (`pool-NN`, sorting after the demo's), 1000
 * a device: their ids in order.
 */
export async function freeInterfaces(api: Api, db: Db, count: number): Promise<number[]> {
  const template = (await db('dcim_device').where('name', 'bench-a').first('device_type_id', 'role_id', 'site_id')) as Record<string, number>;
  const devices = await api<Created[]>('/api/dcim/devices/', Array.from({ length: Math.ceil(count / 1000) }, (_, n) => ({
    name: `pool-${String(n).padStart(2, '0')}`, device_type: template.device_type_id, role: template.role_id, site: template.site_id,
  })));
  const { rows } = (await db.raw(
    `insert into dcim_interface (device_id, name, type, created, last_updated)
     select d, 'port' || k, '10gbase-x-sfpp', now(), now() from unnest(?::int[]) d cross join generate_series(1, 1000) k returning id`,
    [devices.map((d) => d.id)],
  )) as { rows: Created[] };
  await db.raw('analyze dcim_interface');
  return rows.map((r) => r.id).sort((a, b) => a - b).slice(0, count);
}
