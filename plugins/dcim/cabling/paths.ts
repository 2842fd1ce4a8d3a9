import type { Knex } from '@mikro-orm/knex';
import { appendTo, Batcher, drawnIds, storedRow, storedRowsWhere, writeBehind, type Db, type Memo, type ModelRegistry, type Row, type WriteSession } from 'patchbay';
import { cableRole, isPathEndpoint } from './cabled.js';
import { CablingLocks } from './locks.js';
import { idsByModel, nodeOf, parseNode, type PathNode } from './nodes.js';
import type { TraceLoads } from './roles.js';
import { pathsThrough } from './stored-paths.js';
import { traceFrom, type TracedPath } from './trace.js';

/** The row `id` of `model` as the write stored it, if it did (read back, it would be the same). */
function written(memo: Memo | undefined, model: string, id: number): Row | undefined {
  return memo?.recall<Row>(storedRow(model, id));
}

/**
 * The tracer's loads for one re-trace, batched across its traces (one query per model and round), one query at a
 * time (a transaction's connection runs one at a time anyway). Objects paths hold (cables and what they attach to)
 * are added to `read` as they load.
 */
function batchedLoads(db: Db, registry: ModelRegistry, read: Set<PathNode>, memo?: Memo): TraceLoads {
  const inPaths = (model: string) => model === 'dcim.cable' || cableRole(registry, model) !== undefined;
  const note = (model: string, rows: Row[]) => {
    if (inPaths(model)) for (const row of rows) read.add(nodeOf(model, row.id as number));
    return rows;
  };
  const batcher = new Batcher();
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(query: () => Promise<T>): Promise<T> => {
    const next = last.then(query);
    last = next.catch(() => undefined);
    return next;
  };
  return {
    registry,
    async rows(model, ids) {
      // Rows the write stored, at once: a bulk write's traces ask for thousands, one or two at a time.
      const held = ids.map((id) => written(memo, model, id));
      if (held.every((row) => row !== undefined)) return note(model, held as Row[]);
      const table = registry.get(model).table;
      const found = await Promise.all(
        ids.map((id, n) => {
          const row = held[n];
          if (row) return note(model, [row])[0];
          return batcher.load(`rows:${model}`, id, async (keys: number[]) => {
            const rows = note(model, (await inTurn(() => db(table).select('*').whereRaw('id = any(?)', [keys]))) as Row[]);
            const byId = new Map(rows.map((r) => [r.id as number, r]));
            return keys.map((k) => byId.get(k));
          });
        }),
      );
      return found.filter((r): r is Row => r !== undefined);
    },
    where(model, column, value) {
      const table = registry.get(model).table;
      // Rows the write left as they are (a cable's ends), when it wrote them all.
      const known = memo?.recall<Row[]>(storedRowsWhere(model, column, value));
      if (known) return Promise.resolve(note(model, known));
      return batcher.load(`where:${model}:${column}`, value, async (keys: number[]) => {
        const rows = note(model, (await inTurn(() => db(table).select('*').whereRaw('?? = any(?)', [column, keys]).orderBy('id'))) as Row[]);
        const byKey = new Map<unknown, Row[]>();
        for (const row of rows) appendTo(byKey, row[column], row);
        return keys.map((k) => byKey.get(k) ?? []);
      });
    },
  };
}

/** Origins sharing one end of one cable share one path, as in NetBox. */
interface Origin {
  model: string;
  rows: Row[];
}

/** A traced path as written, with its id and origins. */
interface Written extends TracedPath {
  id: number;
  origins: PathNode[];
}

/** A path the change touches, with its origins and every object it holds. */
interface AffectedPath {
  id: number;
  origins: PathNode[];
  nodes: PathNode[];
}

/** What one round of a re-trace found: the paths it affects, the origins traced again, their paths, what it read. */
interface Round {
  affected: AffectedPath[];
  origins: Origin[];
  traced: (TracedPath | null)[];
  read: Set<PathNode>;
}

/** Reads the paths through `touched` (none when they are `unpathed`) and traces every origin concerned again. */
async function traceRound(db: Db, registry: ModelRegistry, touched: PathNode[], memo?: Memo, unpathed = false): Promise<Round> {
  const { rows: affected } = unpathed ? { rows: [] as AffectedPath[] } : (await db.raw(
    `select p.id, coalesce(array_agg(n.node) filter (where n.origin), '{}') as origins, array_agg(n.node) as nodes
     from dcim_cablepath p join dcim_cablepathnode n on n.path_id = p.id where p.id in (${pathsThrough()}) group by p.id order by p.id`,
    [[...new Set(touched)]],
  )) as { rows: AffectedPath[] };
  const read = new Set<PathNode>(affected.flatMap((p) => p.nodes));
  const candidates = new Set<PathNode>([...touched.filter((n) => isPathEndpoint(registry, parseNode(n).model)), ...affected.flatMap((p) => p.origins)]);

  const groups = new Map<string, Origin>();
  for (const [model, ids] of idsByModel(candidates)) {
    if (!isPathEndpoint(registry, model)) continue;
    // Rows the write stored are read from its memo, the others with their cable.
    const known = ids.flatMap((id): Row[] => [written(memo, model, id) ?? []].flat());
    const unknown = ids.filter((id) => !written(memo, model, id));
    const stored = unknown.length ? ((await db(registry.get(model).table).select('*').whereRaw('id = any(?)', [unknown]).whereNotNull('cable_id')) as Row[]) : [];
    const rows = [...known.filter((r) => r.cable_id !== null), ...stored].sort((a, b) => (a.id as number) - (b.id as number));
    for (const row of rows) {
      const key = `${model}|${row.cable_id}|${row.cable_end}`;
      const group = groups.get(key) ?? { model, rows: [] };
      group.rows.push(row);
      groups.set(key, group);
    }
  }
  const loads = batchedLoads(db, registry, read, memo);
  const origins = [...groups.values()];
  const traced = await Promise.all(origins.map((o) => traceFrom(o, loads, (m) => cableRole(registry, m))));
  return { affected, origins, traced, read };
}

/**
 * As SQL with its bindings: `touched`, the ports paired with the touched ports in their panels, every object of the
 * paths through them, and the ports paired with the panel ports of those paths (where a path now ending at a panel
 * may go on).
 */
function reach(touched: PathNode[]): [string, Knex.Value[]] {
  const ids = (model: string) => touched.map(parseNode).filter((n) => n.model === model).map((n) => n.id);
  const sql = `with near(node) as (
       select unnest(?::text[])
       union select 'dcim.rearport:' || rear_port_id from dcim_frontport where id = any(?)
       union select 'dcim.frontport:' || id from dcim_frontport where rear_port_id = any(?)),
     on_paths(node) as (
       select n.node from dcim_cablepathnode n where n.path_id in (select path_id from dcim_cablepathnode where node in (select node from near))),
     ports(kind, id) as (
       select split_part(node, ':', 1), split_part(node, ':', 2)::int from on_paths where node like 'dcim.frontport:%' or node like 'dcim.rearport:%')
     select node from near union select node from on_paths
     union select 'dcim.rearport:' || f.rear_port_id from dcim_frontport f join ports p on p.kind = 'dcim.frontport' and p.id = f.id
     union select 'dcim.frontport:' || f.id from dcim_frontport f join ports p on p.kind = 'dcim.rearport' and p.id = f.rear_port_id`;
  return [sql, [touched, ids('dcim.frontport'), ids('dcim.rearport')]];
}

/**
 * Brings every cable path the change of `touched` objects (cables, terminations, ports, circuit terminations) can
 * affect up to date, in the caller's transaction: paths through any of them are traced again from their origins,
 * touched endpoints get a path if they now have one, and paths left without a cabled origin go. Other paths are
 * left alone. Only cable paths and their nodes are written.
 *
 * Concurrent changes are kept apart by locking what they reach: the touched objects, then everything the paths read
 * hold (old and new); when a round read objects it had not locked, it locks them and traces again, since another
 * change may have written them meanwhile. Changes on separate links run side by side.
 */
export async function retrace(db: Db, registry: ModelRegistry, touched: PathNode[], options: RetraceOptions = {}): Promise<void> {
  if (!touched.length) return;
  const locks = new CablingLocks(db, options.alone ? 'alone' : options.shared ? 'shared' : 'objects');
  // What the traces will most likely read, locked at once: the paths through the touched objects and the ports on
  // the other side of the touched panels (a front port's rear port, a rear port's front ports). Unpathed objects
  // are all there is to read, and out of other changes' reach.
  if (options.shared) await locks.takeWhole();
  else if (options.unpathed) locks.assume(touched);
  else await locks.takeFirst(...reach(touched));
  const next = () => traceRound(db, registry, touched, options.memo, options.unpathed);
  let round = await next();
  while (await locks.take(round.read)) round = await next();
  const { affected, origins, traced } = round;

  // Each traced group keeps a path one of its origins had, if still free; the paths nobody keeps go.
  const claimed = new Set<number>();
  const kept: Written[] = [];
  const fresh: Omit<Written, 'id'>[] = [];
  origins.forEach((group, n) => {
    const path = traced[n];
    if (!path) return;
    const nodes = group.rows.map((r) => nodeOf(group.model, r.id as number));
    const reuse = affected.find((p) => !claimed.has(p.id) && p.origins.some((o) => nodes.includes(o)));
    if (!reuse) return fresh.push({ ...path, origins: nodes });
    claimed.add(reuse.id);
    kept.push({ ...path, id: reuse.id, origins: nodes });
  });
  const dropped = affected.filter((p) => !claimed.has(p.id)).map((p) => p.id);
  if (dropped.length) {
    await writeBehind(db, db.raw('with gone as (delete from dcim_cablepath where id = any(?) returning id) delete from dcim_cablepathnode where path_id in (select id from gone)', [dropped]));
  }
  if (kept.length) {
    await db.raw(
      `update dcim_cablepath p set path = v.path, is_active = v.is_active, is_complete = v.is_complete, is_split = v.is_split, last_updated = now()
       from jsonb_to_recordset(?::jsonb) as v(id int, path jsonb, is_active boolean, is_complete boolean, is_split boolean) where p.id = v.id`,
      [JSON.stringify(kept.map(({ id, path, is_active, is_complete, is_split }) => ({ id, path, is_active, is_complete, is_split })))],
    );
    await db('dcim_cablepathnode').whereRaw('path_id = any(?)', [kept.map((p) => p.id)]).delete();
  }
  if (!kept.length && !fresh.length) return;
  // New paths take their ids from the sequence in the statement that writes them and everyone's nodes (`k` names a
  // new path, the k-th id drawn; `path` a kept one). An array of ids, not a join: a bulk write has thousands of each.
  const nodesOf = (p: TracedPath & { origins: PathNode[] }) => [...new Set(p.path.flat())].map((node) => ({ node, origin: p.origins.includes(node) }));
  const nodes = [
    ...kept.flatMap((p) => nodesOf(p).map((n) => ({ ...n, path: p.id }))),
    ...fresh.flatMap((p, k) => nodesOf(p).map((n) => ({ ...n, k: k + 1 }))),
  ];
  // Written behind: the write goes on (its answer, its other steps) while PostgreSQL stores the paths.
  await writeBehind(db, db.raw(
    `with drawn as materialized (${drawnIds('dcim_cablepath')}),
     paths as (insert into dcim_cablepath (id, path, is_active, is_complete, is_split, created, last_updated)
       select (select ids from drawn)[v.k], v.path, v.is_active, v.is_complete, v.is_split, now(), now()
       from jsonb_to_recordset(?::jsonb) as v(k int, path jsonb, is_active boolean, is_complete boolean, is_split boolean))
     insert into dcim_cablepathnode (path_id, node, origin, created, last_updated)
     select coalesce(v.path, (select ids from drawn)[v.k]), v.node, v.origin, now(), now()
     from jsonb_to_recordset(?::jsonb) as v(path int, k int, node text, origin boolean)`,
    [fresh.length, JSON.stringify(fresh.map(({ path, is_active, is_complete, is_split }, k) => ({ k: k + 1, path, is_active, is_complete, is_split }))), JSON.stringify(nodes)],
  ));
}

/** How a re-trace runs. */
export interface RetraceOptions {
  /** Take the cabling lock for itself (a change that kept losing to others). */
  alone?: boolean;
  /** Take the cabling lock shared, and no object's (the demo's parts: see `CablingLocks`). */
  shared?: boolean;
  /** The write's memo, holding the rows it stored. */
  memo?: Memo;
  /**
   * No stored path runs through any of the touched objects (new cables between endpoints that were free: a path
   * holds an endpoint only while it is cabled), so none is read.
   */
  unpathed?: boolean;
}

/**
 * A write's re-trace. Changes that meet lock each other's objects in turns, and may deadlock (PostgreSQL then fails
 * one, which is run again); from its third run on, a change takes the cabling lock for itself, so that on a busy
 * server it cannot keep losing.
 */
export function retraceIn(session: Pick<WriteSession, 'db' | 'registry' | 'attempt' | 'memo'>, touched: PathNode[], unpathed = false): Promise<void> {
  return retrace(session.db, session.registry, touched, { alone: session.attempt > 2, memo: session.memo, unpathed });
}
