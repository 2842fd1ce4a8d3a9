import type { RenderContext } from '../../../kernel/index.js';
import { nodeOf, type PathNode } from './nodes.js';

/** A stored cable path, as the objects it starts at read it. */
export interface StartingPath {
  id: number;
  path: PathNode[][];
  is_active: boolean;
  is_complete: boolean;
  _origins: PathNode[];
}

/** The paths starting at objects `ids` of `model`, by origin node: one query (by the origins' index). */
export async function pathsFrom(model: string, ids: number[], ctx: RenderContext): Promise<Map<PathNode, StartingPath>> {
  const origins = ids.map((id) => nodeOf(model, id));
  if (!origins.length) return new Map();
  const paths = (await ctx.db('dcim_cablepath').select('id', 'path', 'is_active', 'is_complete', '_origins').whereRaw('_origins && ?::text[]', [origins])) as StartingPath[];
  return new Map(paths.flatMap((p) => p._origins.map((o) => [o, p] as const)));
}

/** Where a path leads: its last hop when it is complete, else nowhere. */
export const destinations = (path: StartingPath | undefined): PathNode[] => (path?.is_complete ? path.path.at(-1) ?? [] : []);
