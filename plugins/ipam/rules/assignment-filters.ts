import {
  cmp, existingIds, lastValue, not, parseBoolean, parseWholeNumber, type Db, type FilterNode, type QueryFilter,
} from 'patchbay';
import { chassisInterfaceIds } from '../../dcim/api.js';

/** Objects whose generic relation `field` points at an object of `model` among those `ids` selects. */
export function pointingAt(field: string, model: string, ids: (db: Db) => ReturnType<Db> | number[]): FilterNode {
  const [app, name] = model.split('.');
  return {
    op: 'sql',
    condition: (qb, alias, _m, db) => {
      const type = db('core_objecttype').select('id').where({ app_label: app, model: name });
      qb.whereIn(`${alias}.${field}_type_id`, type).whereIn(`${alias}.${field}_id`, ids(db));
    },
  };
}

const assignedTo = (model: string, ids: (db: Db) => ReturnType<Db> | number[]) => pointingAt('assigned_object', model, ids);

/** A filter from its condition on the values; `__n` negates it. */
export const negatable = (build: (values: string[], db: Db) => FilterNode | Promise<FilterNode>): QueryFilter => ({
  suffixes: ['n'],
  build: async (suffix, values, ctx) => {
    const node = await build(values, ctx.db);
    return suffix === 'n' ? not(node) : node;
  },
});

/** NetBox's IP address filters along the assigned object. */
export const assignmentFilters: Record<string, QueryFilter> = {
  assigned: { suffixes: [], build: (_s, values) => cmp(['assigned_object'], 'isnull', !parseBoolean(lastValue(values))) },
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
    const ids = await existingIds(db, 'dcim_interface', 'id', values.map(parseWholeNumber));
    return assignedTo('dcim.interface', () => ids);
  }),
  interface: negatable((values) => assignedTo('dcim.interface', (db) => db('dcim_interface').select('id').whereIn('name', values))),
  fhrpgroup_id: negatable((values) => {
    const ids = values.map(parseWholeNumber);
    return assignedTo('ipam.fhrpgroup', () => ids);
  }),
  ...interfaceOwnerFilters('assigned_object'),
  // Addresses a service listens on.
  service_id: negatable((values) => {
    const ids = values.map(parseWholeNumber);
    return { op: 'sql', condition: (qb, alias, _m, db) => void qb.whereIn(`${alias}.id`, db('ipam_service_ipaddresses').select('ipaddress_id').whereIn('service_id', ids)) };
  }),
};

/**
 * `?device=` and `?device_id=` on objects whose generic relation `field` points at interfaces: those on the
 * device's interfaces, and on its virtual chassis members' when it is the master (NetBox's `vc_interfaces`).
 */
export function interfaceOwnerFilters(field: string): Record<string, QueryFilter> {
  return {
    device: negatable((values) => pointingAt(field, 'dcim.interface', (db) => chassisInterfaceIds(db, 'name', values, true))),
    device_id: negatable((values) => {
      const ids = values.map(parseWholeNumber);
      return pointingAt(field, 'dcim.interface', (db) => chassisInterfaceIds(db, 'id', ids, true));
    }),
  };
}
