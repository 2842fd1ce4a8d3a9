import {
  ParamError, cmp, lastValue, not, parseWholeNumber, relationFilter,
  type Db, type ModelRegistry, type QueryFilter,
} from 'patchbay';
import { VIRTUAL_INTERFACE_TYPES, WIRELESS_INTERFACE_TYPES } from '../choices/index.js';
import { parseMac } from '../fields/mac-address.js';
import { VirtualDeviceContext } from '../models/virtual-device-context.js';
import { idIn } from './related-rows.js';

/** Values of a MAC address filter in the stored form, or a 400 naming the bad one. */
export function macValues(values: string[]): string[] {
  return values.map((v) => {
    const mac = parseMac(v);
    if (!mac) throw new ParamError(`Enter a valid MAC address: ${v}`);
    return mac;
  });
}

/** The ids of interfaces (of `model`: VM interfaces too) that have one of `macs` among their MAC addresses. */
export function interfacesWithMacs(db: Db, registry: ModelRegistry, macs: string[], model = 'dcim.interface'): ReturnType<Db> {
  return db('dcim_macaddress')
    .select('assigned_object_id')
    .where('assigned_object_type_id', registry.objectTypes.idOf(model) ?? 0)
    .whereIn('mac_address', macs);
}

const PHYSICAL_EXCLUDES = [...VIRTUAL_INTERFACE_TYPES, ...WIRELESS_INTERFACE_TYPES];

/**
 * The ids of the interfaces the devices whose `column` is among `values` see as their own in a virtual chassis
 * (NetBox's `vc_interfaces`): their own, plus the members' non-management interfaces when in a chassis (with
 * `ifMaster`, only for the chassis master).
 */
export function chassisInterfaceIds(db: Db, column: 'name' | 'id', values: unknown[], ifMaster: boolean): ReturnType<Db> {
  return db('dcim_interface as i')
    .select('i.id')
    .whereExists((q) => {
      q.select('d.id').from('dcim_device as d').whereIn(`d.${column}`, values as string[]);
      q.where((w) => {
        w.whereRaw('d.id = i.device_id').orWhere((member) => {
          member.where('i.mgmt_only', false).whereNotNull('d.virtual_chassis_id');
          member.whereRaw('exists (select 1 from dcim_device m where m.id = i.device_id and m.virtual_chassis_id = d.virtual_chassis_id)');
          if (ifMaster) member.whereRaw('exists (select 1 from dcim_virtualchassis vc where vc.id = d.virtual_chassis_id and vc.master_id = d.id)');
        });
      });
    });
}

function chassisFilter(column: 'name' | 'id', ifMaster: boolean): QueryFilter {
  return {
    suffixes: [],
    build: (_s, values) => {
      const keys = column === 'id' ? values.map(parseWholeNumber) : values;
      return idIn((db) => chassisInterfaceIds(db, column, keys, ifMaster));
    },
  };
}

/** The interface filters NetBox defines by method rather than by field. */
export const interfaceFilters: Record<string, QueryFilter> = {
  kind: {
    suffixes: [],
    build: (_s, values) => {
      const kind = lastValue(values).trim().toLowerCase();
      const type = (types: string[]) => cmp(['type'], 'in', types);
      if (kind === 'physical') return not(type(PHYSICAL_EXCLUDES));
      if (kind === 'virtual') return type([...VIRTUAL_INTERFACE_TYPES]);
      if (kind === 'wireless') return type([...WIRELESS_INTERFACE_TYPES]);
      throw new ParamError(`Select a valid choice. ${kind} is not one of physical, virtual, wireless.`);
    },
  },
  mac_address: {
    suffixes: [],
    build: (_s, values, ctx) => {
      const macs = macValues(values);
      return idIn((db) => interfacesWithMacs(db, ctx.registry, macs));
    },
  },
  vdc_identifier: relationFilter(['vdcs'], VirtualDeviceContext, 'identifier', false),
  virtual_chassis_member: chassisFilter('name', false),
  virtual_chassis_member_id: chassisFilter('id', false),
  virtual_chassis_member_or_master: chassisFilter('name', true),
  virtual_chassis_member_or_master_id: chassisFilter('id', true),
};
