import {
  ValidationError, resolveRelated,
  type FieldRenderer, type JsonObject, type RenderContext, type Row, type WriteContext, type WriteValues,
} from '../../../kernel/index.js';
import { SideTableField } from './side-table.js';

export const TAGGED_ITEMS = 'extras_taggeditem';

/**
 * `tags` on every model declaring the feature: read as nested tags, written as ids or attribute objects
 * (`[]` clears, leaving the key out keeps them). Links live in one table for all models.
 */
export class TagsField extends SideTableField {
  constructor() {
    super('tags', 'Tags');
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const links = (ids.length
      ? await ctx.db(TAGGED_ITEMS).select('object_id', 'tag_id').where('object_type_id', this.typeId(ctx.registry)).whereIn('object_id', ids)
      : []) as { object_id: number; tag_id: number }[];
    const tags = await ctx.registry.loadNested(ctx.registry.get('extras.tag'), links.map((l) => l.tag_id), ctx);
    const order = new Map([...tags.keys()].map((id, i) => [id, i]));
    const byObject = new Map<number, JsonObject[]>();
    for (const link of links.sort((a, b) => order.get(a.tag_id)! - order.get(b.tag_id)!)) {
      byObject.set(link.object_id, [...(byObject.get(link.object_id) ?? []), tags.get(link.tag_id)!]);
    }
    return (row, out) => {
      out.tags = byObject.get(row.id as number) ?? [];
    };
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const value = body.tags;
    if (!Array.isArray(value)) throw ValidationError.of('tags', 'Expected a list of items.');
    const tagModel = ctx.registry.get('extras.tag');
    const ids: number[] = [];
    for (const item of value) ids.push(await resolveRelated(ctx.db, tagModel, item, 'tags', (k) => ctx.registry.get(k)));
    const unique = [...new Set(ids)];
    const restricted = (await ctx.db(tagModel.table).select('name', 'object_types').whereIn('id', unique)) as { name: string; object_types: string[] }[];
    const refused = restricted.find((t) => t.object_types.length > 0 && !t.object_types.includes(this.model.key));
    if (refused) throw ValidationError.of('tags', `Tag "${refused.name}" cannot be applied to ${this.model.key} objects.`);
    const typeId = this.typeId(ctx.registry);
    out.after.push(async (id, db) => {
      await db(TAGGED_ITEMS).where({ object_type_id: typeId, object_id: id }).delete();
      if (unique.length) await db(TAGGED_ITEMS).insert(unique.map((tagId) => ({ tag_id: tagId, object_type_id: typeId, object_id: id })));
    });
  }

  /** The change log records tag names, as NetBox does. */
  override async snapshot(row: Row, ctx: RenderContext): Promise<JsonObject> {
    const names = (await ctx.db(`${TAGGED_ITEMS} as ti`)
      .join('extras_tag as t', 't.id', 'ti.tag_id')
      .where({ 'ti.object_type_id': this.typeId(ctx.registry), 'ti.object_id': row.id as number })
      .orderBy('t.name')
      .pluck('t.name')) as string[];
    return { tags: names };
  }

  override async cleanup(ids: number[], ctx: RenderContext): Promise<void> {
    await ctx.db(TAGGED_ITEMS).where('object_type_id', this.typeId(ctx.registry)).whereIn('object_id', ids).delete();
  }

}
