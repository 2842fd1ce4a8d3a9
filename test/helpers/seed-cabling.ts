import type { Db } from '../../kernel/base/types.js';
import type { PatchbayServer } from '../../kernel/server.js';
import { nodeOf } from '../../plugins/dcim/cabling/nodes.js';
import { retrace } from '../../plugins/dcim/cabling/paths.js';

/**
 * Cables straight in SQL: one per row of `pairs` (SQL selecting `a_id, b_id`), from objects of model `a` (end A)
 * to objects of model `b`, with their terminations and the objects' `cable` and `cable_end`.
 */
export async function seedCables(db: Db, a: string, b: string, pairs: string): Promise<void> {
  const table = (key: string) => key.replace('.', '_');
  const type = (key: string) => `(select id from core_objecttype where app_label = '${key.split('.')[0]}' and model = '${key.split('.')[1]}')`;
  await db.transaction(async (trx) => {
    await trx.raw(`create temp table seed_pairs on commit drop as
      select row_number() over (order by a_id) + (select coalesce(max(id), 0) from dcim_cable) as cable, a_id, b_id from (${pairs}) p`);
    await trx.raw(`insert into dcim_cable (id, status, label, color, description, comments, created, last_updated)
      select cable, 'connected', '', '', '', '', now(), now() from seed_pairs`);
    await trx.raw(`insert into dcim_cabletermination (cable_id, cable_end, termination_type_id, termination_id, created, last_updated)
      select cable, 'A', ${type(a)}, a_id, now(), now() from seed_pairs union all select cable, 'B', ${type(b)}, b_id, now(), now() from seed_pairs`);
    await trx.raw(`update ${table(a)} t set cable_id = p.cable, cable_end = 'A' from seed_pairs p where t.id = p.a_id`);
    await trx.raw(`update ${table(b)} t set cable_id = p.cable, cable_end = 'B' from seed_pairs p where t.id = p.b_id`);
    await trx.raw(`select setval(pg_get_serial_sequence('dcim_cable', 'id'), (select max(id) from dcim_cable))`);
  });
}

/** Traces the paths of every cabled object of `models`, as the server keeps them. */
export async function tracePaths(db: Db, server: PatchbayServer, models: string[]): Promise<void> {
  const nodes: string[] = [];
  for (const model of models) {
    const rows = (await db(model.replace('.', '_')).select('id').whereNotNull('cable_id')) as { id: number }[];
    nodes.push(...rows.map((r) => nodeOf(model, r.id)));
  }
  await db.transaction((trx) => retrace(trx, server.registry, nodes));
}

/**
 * Cables every cabled dcim component of seedDcim's `n` devices: interface i to front port i, rear ports two by two
 * (so that interface 2k-1 reaches interface 2k through two panels), console port i to console server port i,
 * power outlet i to power port i, and power feed i to a second power port of device i (`PSU2`); paths traced.
 */
export async function seedCabling(db: Db, server: PatchbayServer, n: number): Promise<void> {
  const series = `from generate_series(1, ${Number(n)}) i`;
  await seedCables(db, 'dcim.interface', 'dcim.frontport', `select i as a_id, i as b_id ${series}`);
  await seedCables(db, 'dcim.rearport', 'dcim.rearport', `select i as a_id, i + 1 as b_id ${series} where i % 2 = 1 and i < ${Number(n)}`);
  await seedCables(db, 'dcim.consoleport', 'dcim.consoleserverport', `select i as a_id, i as b_id ${series}`);
  await seedCables(db, 'dcim.poweroutlet', 'dcim.powerport', `select i as a_id, i as b_id ${series}`);
  await db.raw(`insert into dcim_powerport (device_id, name, label, description, mark_connected, created, last_updated)
    select i, 'PSU2', '', '', false, now(), now() ${series}`);
  await seedCables(db, 'dcim.powerport', 'dcim.powerfeed', `select p.id as a_id, p.device_id as b_id from dcim_powerport p where p.name = 'PSU2'`);
  await tracePaths(db, server, ['dcim.interface', 'dcim.consoleport', 'dcim.consoleserverport', 'dcim.powerport', 'dcim.poweroutlet', 'dcim.powerfeed']);
}
