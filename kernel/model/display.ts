import type { Model } from './model.js';
import type { RenderContext, Row } from '../base/types.js';
import { whereIdIn } from '../base/typed-arrays.js';

/** `display` strings of objects of `model` by id, in one query (for display rules that name related objects). */
export async function loadDisplays(model: Model, ids: number[], ctx: RenderContext): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = (await whereIdIn(ctx.db(model.table).select('*'), 'id', unique)) as Row[];
  return displaysOf(model, rows, ctx);
}

/** `display` strings of rows in hand: no query unless the model's display needs related data. */
export async function displaysOf(model: Model, rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  if (model.decl.displayLoader) return model.decl.displayLoader(rows, ctx);
  return new Map(rows.map((row) => [row.id as number, model.displayOf(row)]));
}
