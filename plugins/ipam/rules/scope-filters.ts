import { ParamError, lastValue, parseWholeNumber, type FilterNode, type QueryFilter } from 'patchbay';

/**
 * `?site=<id>` and its kin on VLAN groups (NetBox's `filter_scope`): groups whose scope is that object of `model`.
 */
export function scopedTo(model: string): QueryFilter {
  const [app, name] = model.split('.');
  return {
    suffixes: [],
    build: (_s, values) => {
      const text = lastValue(values);
      const id = parseWholeNumber(text);
      if (id < 1) throw new ParamError('Enter a whole number.');
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, alias, _m, db) =>
          void qb.where(`${alias}.scope_id`, id).whereIn(`${alias}.scope_type_id`, db('core_objecttype').select('id').where({ app_label: app, model: name })),
      };
      return node;
    },
  };
}
