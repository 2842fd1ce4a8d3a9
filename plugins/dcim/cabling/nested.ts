import type { JsonObject, RenderContext } from 'patchbay';
import { idsByModel, nodeOf, type PathNode } from './nodes.js';

/** The nested (brief) form of every node, one load per model; objects the reader may not view are left out. */
export async function nestedNodes(nodes: Iterable<PathNode>, ctx: RenderContext): Promise<Map<PathNode, JsonObject>> {
  const found = new Map<PathNode, JsonObject>();
  for (const [key, ids] of idsByModel(new Set(nodes))) {
    const model = ctx.registry.find(key);
    if (!model) continue;
    const viewable = ctx.viewable ? await ctx.viewable(model, ids) : undefined;
    const loaded = await ctx.registry.nestedById(model, viewable ? ids.filter((id) => viewable.has(id)) : ids, ctx);
    for (const [id, object] of loaded) found.set(nodeOf(key, id), object);
  }
  return found;
}
