import {
  booleanFilter, cmp, lastValue, not, or, parseBoolean, parseWholeNumber, relationFilter, textFilter,
  type QueryFilter,
} from 'patchbay';
import { DeviceType } from '../models/device-type.js';
import { interfacesWithMacs, macValues } from './interface-filters.js';
import { hasRows, idIn } from './related-rows.js';

/** Exact matches ignore case, as NetBox's device `name` and `serial` filters do; the other lookups as usual. */
export function caseInsensitive(field: string): QueryFilter {
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
export function isSet(column: string): QueryFilter {
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
  parent_bay_id: {
    suffixes: ['n'],
    build: (suffix, values) => {
      const ids = values.map(parseWholeNumber);
      const node = idIn((db) => db('dcim_devicebay').select('installed_device_id').whereIn('id', ids).whereNotNull('installed_device_id'));
      return suffix === 'n' ? not(node) : node;
    },
  },
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
      const macs = macValues(values);
      return idIn((db) => db('dcim_interface').select('device_id').whereIn('id', interfacesWithMacs(db, ctx.registry, macs)));
    },
  },
  console_ports: hasRows('device_id', 'dcim_consoleport'),
  console_server_ports: hasRows('device_id', 'dcim_consoleserverport'),
  power_ports: hasRows('device_id', 'dcim_powerport'),
  power_outlets: hasRows('device_id', 'dcim_poweroutlet'),
  interfaces: hasRows('device_id', 'dcim_interface'),
  pass_through_ports: hasRows('device_id', 'dcim_frontport', 'dcim_rearport'),
  module_bays: hasRows('device_id', 'dcim_modulebay'),
  device_bays: hasRows('device_id', 'dcim_devicebay'),
  has_virtual_device_context: hasRows('device_id', 'dcim_virtualdevicecontext'),
};
