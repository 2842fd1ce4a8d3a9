import { cmp, lastValue, not, parseBoolean, parseWholeNumber, type Db, type FilterNode, type QueryFilter } from 'patchbay';

/** MAC addresses assigned to an interface that `where` selects (by the interface's or its device's attributes). */
function onInterface(where: (qb: ReturnType<Db>) => void): FilterNode {
  return {
    op: 'sql',
    condition: (qb, alias, _model, db) => {
      const interfaces = db('dcim_interface as i').join('dcim_device as d', 'd.id', 'i.device_id').select('i.id');
      where(interfaces);
      qb.whereIn(`${alias}.assigned_object_type_id`, db('core_objecttype').select('id').where({ app_label: 'dcim', model: 'interface' }));
      qb.whereIn(`${alias}.assigned_object_id`, interfaces);
    },
  };
}

/** `?<name>=a&<name>=b`: MAC addresses whose interface matches any value (`__n`: none). */
function byInterface(column: string, parse: (v: string) => string | number): QueryFilter {
  return {
    suffixes: ['n'],
    build: (suffix, values) => {
      const parsed = values.map(parse);
      const node = onInterface((qb) => void qb.whereIn(column, parsed));
      return suffix === 'n' ? not(node) : node;
    },
  };
}

/** NetBox's MAC address filters that follow the assigned interface. */
export const macFilters: Record<string, QueryFilter> = {
  interface_id: byInterface('i.id', parseWholeNumber),
  interface: byInterface('i.name', String),
  device_id: byInterface('d.id', parseWholeNumber),
  device: byInterface('d.name', String),
  assigned: { suffixes: [], build: (_s, values) => cmp(['assigned_object'], 'isnull', !parseBoolean(lastValue(values))) },
  // The primary MAC address of an interface, or of any model with one (VM interfaces).
  primary: {
    suffixes: [],
    build: (_s, values, ctx) => {
      const holders = ctx.registry.all().filter((m) => m.field('primary_mac_address')).map((m) => m.table);
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, alias, _model, db) =>
          void qb.where((w) => {
            for (const table of holders) w.orWhereIn(`${alias}.id`, db(table).select('primary_mac_address_id').whereNotNull('primary_mac_address_id'));
          }),
      };
      return parseBoolean(lastValue(values)) ? node : not(node);
    },
  },
};
