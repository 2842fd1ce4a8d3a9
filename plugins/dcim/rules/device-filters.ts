import {
  ParamError, booleanFilter, cmp, lastValue, not, or, parseBoolean, parseWholeNumber, relationFilter, textFilter,
  type Db, type FilterNode, type QueryFilter,
} from '../../../kernel/index.js';
import { DeviceType } from '../models/device-type.js';
import { parseMac } from '../fields/mac-address.js';

/** Devices whose id is among what `ids` selects (a subquery over another table). */
function idIn(ids: (db: Db) => ReturnType<Db>): FilterNode {
  return { op: 'sql', condition: (qb, alias, _model, db) => void qb.whereIn(`${alias}.id`, ids(db)) };
}

/** `?<name>=true|false`: devices that have (or lack) a row in one of `tables` pointing at them. */
function has(...tables: string[]): QueryFilter {
  return {
    suffixes: [],
    build: (_s, values) => {
      const node = or(tables.map((table) => idIn((db) => db(table).select('device_id').whereNotNull('device_id'))));
      return parseBoolean(lastValue(values)) ? node : not(node);
    },
  };
}

/** Exact matches ignore case, as NetBox's device `name` and `serial` filters do; the other lookups as usual. */
function caseInsensitive(field: string): QueryFilter {
  const text = textFilter([field]);
  return {
    suffixes: text.suffixes,
    build: (suffix, values, ctx) => {
      if (suffix !== '' && suffix !== 'n') return text.build(suffix, values, ctx);
      const node = or(values.map((v) => cmp([field], 'iexact', v)));
      return suffix === 'n' ? not(node) : node;
    },
  };
}

/** Boolean on a column being set. */
function isSet(column: string): QueryFilter {
  return { suffixes: [], build: (_s, values) => cmp([column], 'isnull', !parseBoolean(lastValue(values))) };
}

/** The device filters NetBox defines by method rather than by field. */
export const deviceFilters: Record<string, QueryFilter> = {
  name: caseInsensitive('name'),
  serial: caseInsensitive('serial'),
  model: relationFilter(['device_type'], DeviceType, 'slug', false),
  is_full_depth: booleanFilter(['device_type', 'is_full_depth']),
  local_context_data: isSet('local_context_data'),
  virtual_chassis_member: isSet('virtual_chassis'),
  parent_device_id: {
    suffixes: ['n'],
    build: (suffix, values) => {
      const ids = values.map(parseWholeNumber);
      const node = idIn((db) => db('dcim_devicebay').select('installed_device_id').whereIn('device_id', ids).whereNotNull('installed_device_id'));
      return suffix === 'n' ? not(node) : node;
    },
  },
  mac_address: {
    suffixes: [],
    build: (_s, values, ctx) => {
      const macs = values.map((v) => {
        const mac = parseMac(v);
        if (!mac) throw new ParamError(`Enter a valid MAC address: ${v}`);
        return mac;
      });
      const interfaceType = ctx.registry.objectTypes.idOf('dcim.interface');
      return idIn((db) =>
        db('dcim_interface as i')
          .join('dcim_macaddress as m', (j) => j.on('m.assigned_object_id', 'i.id').andOnVal('m.assigned_object_type_id', interfaceType ?? 0))
          .select('i.device_id')
          .whereIn('m.mac_address', macs),
      );
    },
  },
  console_ports: has('dcim_consoleport'),
  console_server_ports: has('dcim_consoleserverport'),
  power_ports: has('dcim_powerport'),
  power_outlets: has('dcim_poweroutlet'),
  interfaces: has('dcim_interface'),
  pass_through_ports: has('dcim_frontport', 'dcim_rearport'),
  module_bays: has('dcim_modulebay'),
  device_bays: has('dcim_devicebay'),
  has_virtual_device_context: has('dcim_virtualdevicecontext'),
};
