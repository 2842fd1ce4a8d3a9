import type { Model } from './model.js';
import type { FieldRenderer, JsonObject, RenderContext, RenderMode, Row } from './types.js';

/**
 * Renders a page of rows of one model. Each field prepares once for the whole page (one query at most
 * per related model), so the query count does not depend on the number of rows.
 */
export async function renderRows(model: Model, rows: Row[], ctx: RenderContext, mode: RenderMode): Promise<JsonObject[]> {
  const fields = ctx.registry.outputFields(model, mode);
  const renderers: FieldRenderer[] = [];
  for (const field of fields) renderers.push(await field.prepare(rows, ctx, mode));
  return rows.map((row) => {
    const out: JsonObject = {};
    for (const render of renderers) render(row, out);
    return out;
  });
}
