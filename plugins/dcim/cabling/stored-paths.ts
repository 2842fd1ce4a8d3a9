import type { Db, RenderContext } from '../../../kernel/index.js';
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

/** The paths starting at objects `ids` of `model`, by origin node: one query (by the node index). */
export async function pathsFrom(model: string, ids: number[], ctx: Pick<RenderContext, 'db'>): Promise<Map<PathNode, StoredPath>> {
  const origins = ids.map((id) => nodeOf(model, id));
  if (!origins.length) return new Map();
  const rows = (await ctx.db.raw(
    `select n.node, p.id, p.path, p.is_active, p.is_complete, p.is_split from dcim_cablepathnode n join dcim_cablepath p on p.id = n.path_id
     where n.origin and n.node = any(?)`,
    [origins],
  )) as { rows: (StoredPath & { node: PathNode })[] };
  return new Map(rows.rows.map(({ node, ...path }) => [node, path]));
}

/** The path starting at `origin`, if any. */
export async function pathFrom(db: Db, origin: PathNode): Promise<StoredPath | undefined> {
  const { model, id } = parseNode(origin);
  return (await pathsFrom(model, [id], { db })).get(origin);
}

/** Where a path leads: its last hop when it is complete, else nowhere. */
export const destinations = (path: StoredPath | undefined): PathNode[] => (path?.is_complete ? path.path.at(-1) ?? [] : []);
