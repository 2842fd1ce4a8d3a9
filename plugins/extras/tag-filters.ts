import { ParamError, and, not, or, parseWholeNumber, type FilterExtension, type FilterNode, type QueryFilter, type SqlCondition } from 'patchbay';
import { TAGGED_ITEMS } from './fields/tags.js';
import { Tag } from './models/tag.js';

/** Objects carrying the tag with `id` (a subquery on the tagged items of the object's model). */
function tagged(tagId: number): FilterNode {
  const condition: SqlCondition = (qb, alias, model, db) => {
    qb.whereIn(
      `${alias}.id`,
      db(TAGGED_ITEMS)
        .select('object_id')
        .where('tag_id', tagId)
        .whereIn('object_type_id', db('core_objecttype').select('id').where({ app_label: model.app, model: model.name })),
    );
  };
  return { op: 'sql', condition };
}

/** `tag` (slug) and `tag_id`: repeated values AND (every tag must be applied); `__n` excludes objects with any. */
function tagFilter(by: 'slug' | 'id'): QueryFilter {
  return {
    suffixes: ['n'],
    async build(suffix, values, ctx) {
      const keys = by === 'id' ? values.map(parseWholeNumber) : values;
      const rows = (await ctx.db(Tag.table).select('id', `${by} as key`).whereIn(by, keys)) as { id: number; key: unknown }[];
      const missing = keys.find((k) => !rows.some((r) => String(r.key) === String(k)));
      if (missing !== undefined) throw new ParamError(`Select a valid choice. ${missing} is not one of the available choices.`);
      const nodes = rows.map((r) => tagged(r.id));
      return suffix === 'n' ? not(or(nodes)) : and(nodes);
    },
  };
}

export const tagFilters: FilterExtension = {
  appliesTo: (model) => model.features.has('tags'),
  filters: () => ({ tag: tagFilter('slug'), tag_id: tagFilter('id') }),
};
