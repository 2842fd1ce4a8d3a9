import {
  ParamError, lastValue, not, parseBoolean, parseWholeNumber, type Db, type FilterNode, type QueryFilter,
} from '../../../kernel/index.js';
import { chassisInterfaceIds } from '../../dcim/rules/interface-filters.js';

/** Addresses assigned to an object of `model` among those `ids` selects. */
function assignedTo(model: string, ids: (db: Db) => ReturnType<Db> | number[]): FilterNode {
  return {
    op: 'sql',
    condition: (qb, alias, _m, db) => {
      const type = db('core_objecttype').select('id').whereRaw("app_label || '.' || model = ?", [model]);
      qb.whereIn(`${alias}.assigned_object_type_id`, type).whereIn(`${alias}.assigned_object_id`, ids(db));
    },
  };
}

const negatable = (build: (values: string[], db: Db) => FilterNode | Promise<FilterNode>): QueryFilter => ({
  suffixes: ['n'],
  build: async (suffix, values, ctx) => {
    const node = await build(values, ctx.db);
    return suffix === 'n' ? not(node) : node;
  },
});

/** Interface ids given to a filter: each must exist (NetBox's "Select a valid choice"). */
async function existingInterfaces(db: Db, values: string[]): Promise<number[]> {
  const ids = values.map(parseWholeNumber);
  const found = new Set(((await db('dcim_interface').select('id').whereIn('id', ids)) as { id: number }[]).map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw new ParamError(`Select a valid choice. ${missing} is not one of the available choices.`);
  return ids;
}

/** NetBox's IP address filters along the assigned object. */
export const assignmentFilters: Record<string, QueryFilter> = {
  assigned: {
    suffixes: [],
    build: (_s, values) => {
      const node: FilterNode = { op: 'sql', condition: (qb, alias) => void qb.whereNotNull(`${alias}.assigned_object_id`) };
      return parseBoolean(lastValue(values)) ? node : not(node);
    },
  },
  assigned_to_interface: {
    suffixes: [],
    build: (_s, values, ctx) => {
      const kinds = ['dcim.interface', 'virtualization.vminterface'].flatMap((key) => ctx.registry.objectTypes.idOf(key) ?? []);
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, alias) => void qb.whereIn(`${alias}.assigned_object_type_id`, kinds.length ? kinds : [0]).whereNotNull(`${alias}.assigned_object_id`),
      };
      return parseBoolean(lastValue(values)) ? node : not(node);
    },
  },
  interface_id: negatable(async (values, db) => {
    const ids = await existingInterfaces(db, values);
    return assignedTo('dcim.interface', () => ids);
  }),
  interface: negatable((values) => assignedTo('dcim.interface', (db) => db('dcim_interface').select('id').whereIn('name', values))),
  // A device's addresses include those on its virtual chassis members' interfaces, when it is the master.
  device: negatable((values) => assignedTo('dcim.interface', (db) => chassisInterfaceIds(db, 'name', values, true))),
  device_id: negatable((values) => {
    const ids = values.map(parseWholeNumber);
    return assignedTo('dcim.interface', (db) => chassisInterfaceIds(db, 'id', ids, true));
  }),
};
