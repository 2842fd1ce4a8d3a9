import type { Db, RenderContext } from 'patchbay';
import { nodeOf, parseNode, type PathNode } from './nodes.js';

/** A stored cable path. */
export interface StoredPath {
  id: number;
  path: PathNode[][];
  is_active: boolean;
  is_complete: boolean;
  is_split: boolean;
}

/** The ids of the paths through any of `nodes` (or, with `origins`, starting at one), as SQL over one array parameter. */
export const pathsThrough = (origins = false) => `select path_id from dcim_cablepathnode where node = any(?)${origins ? ' and origin' : ''}`;

/** A stored path's columns, and the paths starting at the origins a query names: `p`, by the node index. */
const PATH_COLUMNS = 'p.id, p.path, p.is_active, p.is_complete, p.is_split';
const FROM_ORIGINS = 'from dcim_cablepathnode n join dcim_cablepath p on p.id = n.path_id where n.origin';

/** The paths starting at objects `ids` of `model`, by origin node: one query (by the node index). */
export async function pathsFrom(model: string, ids: number[], ctx: Pick<RenderContext, 'db'>): Promise<Map<PathNode, StoredPath>> {
  const origins = ids.map((id) => nodeOf(model, id));
  if (!origins.length) return new Map();
  const rows = (await ctx.db.raw(
    `select n.node, ${PATH_COLUMNS} ${FROM_ORIGINS} and n.node = any(?)`,
    [origins],
  )) as { rows: (StoredPath & { node: PathNode })[] };
  return new Map(rows.rows.map(({ node, ...path }) => [node, path]));
}

/** The path starting at `origin`, if any. */
export async function pathFrom(db: Db, origin: PathNode): Promise<StoredPath | undefined> {
  const { model, id } = parseNode(origin);
  return (await pathsFrom(model, [id], { db })).get(origin);
}

/** The path starting at `origin` and, when it completes at one interface, the interface bridged to it: one statement. */
export async function bridgedPathFrom(db: Db, origin: PathNode): Promise<(StoredPath & { bridge: number | null }) | undefined> {
  const { rows } = (await db.raw(
    `select ${PATH_COLUMNS},
       (select i.bridge_id from dcim_interface i where p.is_complete and jsonb_array_length(p.path -> -1) = 1
          and p.path -> -1 ->> 0 like 'dcim.interface:%' and i.id = split_part(p.path -> -1 ->> 0, ':', 2)::int) as bridge
     ${FROM_ORIGINS} and n.node = ?`,
    [origin],
  )) as { rows: (StoredPath & { bridge: number | null })[] };
  return rows[0];
}

/** Where a path leads: its last hop when it is complete, else nowhere. */
export const destinations = (path: StoredPath | undefined): PathNode[] => (path?.is_complete ? path.path.at(-1) ?? [] : []);
