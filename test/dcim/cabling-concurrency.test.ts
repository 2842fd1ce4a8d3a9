import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrace } from '../../plugins/dcim/cabling/paths.js';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

/**
 * Cabling changes lock only the objects their paths reach: changes on separate links run side by side, those on
 * shared patch panels and trunks take turns. Eight clients create (then delete) the cables of such a plant at once,
 * in a random order; every stored path must equal a trace made afterwards from scratch.
 */

let t: TestServer;
const API = '/api/dcim';
const CLIENTS = 8;
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

/** A small seeded generator (mulberry32), so that a failing order can be replayed. */
function random(s: number): () => number {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(seed);
const shuffled = <T>(items: T[]): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};

const made = async (path: string, body: object | object[]) => {
  const res = await t.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
};
const ref = (type: string, id: number) => [{ object_type: type, object_id: id }];
type CableBody = { a_terminations: object[]; b_terminations: object[] };

/** Runs `jobs` on CLIENTS clients at once, each taking the next job when its last one answered. */
async function onClients<T>(jobs: T[], run: (job: T) => Promise<void>): Promise<void> {
  const queue = [...jobs];
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) await run(job);
  }));
}

/** Every stored path by its origin: what it holds and what it adds up to. */
async function storedPaths(db: TestServer['server']['db']['knex']): Promise<Record<string, Body>> {
  const { rows } = (await db.raw(
    `select n.node, p.path, p.is_active, p.is_complete, p.is_split from dcim_cablepathnode n join dcim_cablepath p on p.id = n.path_id
     where n.origin order by n.node`,
  )) as { rows: Body[] };
  return Object.fromEntries(rows.map(({ node, ...path }) => [node, path]));
}

/** The paths traced afresh from every cabled endpoint, in a transaction rolled back afterwards. */
async function freshPaths(): Promise<Record<string, Body>> {
  const knex = t.server.db.knex;
  let fresh: Record<string, Body> = {};
  await knex.transaction(async (trx) => {
    await trx('dcim_cablepathnode').delete();
    await trx('dcim_cablepath').delete();
    const { rows } = (await trx.raw(`select 'dcim.interface:' || id as node from dcim_interface where cable_id is not null`)) as { rows: { node: string }[] };
    await retrace(trx, t.server.registry, rows.map((r) => r.node));
    fresh = await storedPaths(trx);
    await trx.rollback();
  }).catch(() => undefined);
  return fresh;
}

let cables: CableBody[];
/** The interfaces at the two ends of each patched link, whose paths cross both panels and the trunk. */
let patched: [number, number][];

beforeAll(async () => {
  t = await startServer();
  const site = await made(`${API}/sites/`, { name: 'Lyon', slug: 'lyon' });
  const role = await made(`${API}/device-roles/`, { name: 'Any', slug: 'any' });
  const vendor = await made(`${API}/manufacturers/`, { name: 'Acme', slug: 'acme' });
  const type = await made(`${API}/device-types/`, { manufacturer: vendor.id, model: 'Box', slug: 'box' });
  const names = ['left', 'right', 'panel-1', 'panel-2', 'panel-3', 'panel-4', 'edge-1', 'edge-2'];
  const devices: Body[] = await made(`${API}/devices/`, names.map((name) => ({ name, device_type: type.id, role: role.id, site: site.id })));
  const [left, right, p1, p2, p3, p4, e1, e2] = devices.map((d) => d.id as number);
  const ifaces = async (device: number, prefix: string, n: number) =>
    ((await made(`${API}/interfaces/`, Array.from({ length: n }, (_, i) => ({ device, name: `${prefix}${i + 1}`, type: '10gbase-x-sfpp' })))) as Body[]).map((x) => x.id as number);
  // Panels 1 and 2: one rear port of 8 positions each, its 8 front ports; panels 3 and 4: one position.
  const rears: Body[] = await made(`${API}/rear-ports/`, [
    { device: p1, name: 'R', type: 'mpo', positions: 8 }, { device: p2, name: 'R', type: 'mpo', positions: 8 },
    { device: p3, name: 'R', type: 'lc', positions: 1 }, { device: p4, name: 'R', type: 'lc', positions: 1 },
  ]);
  const fronts = async (device: number, rear: number, n: number) =>
    ((await made(`${API}/front-ports/`, Array.from({ length: n }, (_, i) => ({ device, name: `F${i + 1}`, type: 'lc', rear_port: rear, rear_port_position: i + 1 })))) as Body[]).map((x) => x.id as number);
  const [f1, f2, f3, f4] = [await fronts(p1, rears[0].id, 8), await fronts(p2, rears[1].id, 8), await fronts(p3, rears[2].id, 1), await fronts(p4, rears[3].id, 1)];
  const [a, b, c, d] = [await ifaces(left, 'a', 9), await ifaces(right, 'b', 9), await ifaces(e1, 'c', 8), await ifaces(e2, 'd', 8)];
  const link = (aType: string, aId: number, bType: string, bId: number): CableBody => ({ a_terminations: ref(aType, aId), b_terminations: ref(bType, bId) });
  cables = [
    // Eight links through the shared trunk between panels 1 and 2.
    link('dcim.rearport', rears[0].id, 'dcim.rearport', rears[1].id),
    ...f1.map((front, i) => link('dcim.interface', a[i], 'dcim.frontport', front)),
    ...f2.map((front, i) => link('dcim.frontport', front, 'dcim.interface', b[i])),
    // One link through panels 3 and 4.
    link('dcim.interface', a[8], 'dcim.frontport', f3[0]),
    link('dcim.rearport', rears[2].id, 'dcim.rearport', rears[3].id),
    link('dcim.frontport', f4[0], 'dcim.interface', b[8]),
    // Eight direct links, each on its own.
    ...c.map((x, i) => link('dcim.interface', x, 'dcim.interface', d[i])),
  ];
  patched = [...a.map((x, i) => [x, b[i]] as [number, number])];
});
afterAll(async () => {
  await t?.close();
});

describe(`cabling changes from ${CLIENTS} clients at once (FUZZ_SEED=${seed})`, () => {
  it('create every cable of shared panels and trunks in a random order; each stored path equals a fresh trace', async () => {
    const ids: number[] = [];
    await onClients(shuffled(cables), async (body) => {
      const res = await t.post(`${API}/cables/`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id);
    });
    expect(ids).toHaveLength(cables.length);
    const stored = await storedPaths(t.server.db.knex);
    expect(stored).toEqual(await freshPaths());
    // Both ends of each patched link see each other, complete, through both panels.
    for (const [x, y] of patched) {
      expect(stored[`dcim.interface:${x}`]).toMatchObject({ is_complete: true, is_active: true, is_split: false });
      expect(stored[`dcim.interface:${x}`].path.at(-1)).toEqual([`dcim.interface:${y}`]);
      expect(stored[`dcim.interface:${y}`].path.at(-1)).toEqual([`dcim.interface:${x}`]);
    }
    expect(Object.keys(stored)).toHaveLength(2 * 9 + 2 * 8);

    // Then half of them go, again at once and in a random order (trunks included, or not, as the seed has it).
    const gone = shuffled(ids).slice(0, ids.length / 2);
    await onClients(gone, async (id) => {
      const res = await t.request('DELETE', `${API}/cables/${id}/`);
      expect(res.status, res.text).toBe(204);
    });
    expect(await storedPaths(t.server.db.knex)).toEqual(await freshPaths());
  }, 120_000);
});
