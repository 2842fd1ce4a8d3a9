import {
  ParamError, lastValue, parseWholeNumber, relationFilter,
  type Db, type FilterExtension, type Model, type ModelRegistry, type QueryFilter, type Row,
} from 'patchbay';
import { negatable, pointingAt, scopedTo, present, usableAt, vlansOfInterface } from '../../ipam/api.js';
import { placeOf } from './cluster-place.js';

type Select = (db: Db) => ReturnType<Db>;

/** Objects whose generic relation `field` points at an object of `model` that `ids` selects for the values (`__n`: not). */
const pointing = (field: string, model: string, ids: (values: string[]) => Select): QueryFilter => negatable((values) => pointingAt(field, model, ids(values)));

const INTERFACE = 'virtualization.vminterface';
/** VM interfaces by their own id or name, or by their VM's. */
const interfaces = (column: 'id' | 'name') => (values: string[]): Select => {
  const keys = column === 'id' ? values.map(parseWholeNumber) : values;
  return (db) => db('virtualization_vminterface').select('id').whereIn(column, keys);
};
const interfacesOfMachines = (column: 'id' | 'name') => (values: string[]): Select => {
  const keys = column === 'id' ? values.map(parseWholeNumber) : values;
  return (db) => db('virtualization_vminterface as i').join('virtualization_virtualmachine as m', 'm.id', 'i.virtual_machine_id').select('i.id').whereIn(`m.${column}`, keys);
};
const machines = (column: 'id' | 'name') => (values: string[]): Select => {
  const keys = column === 'id' ? values.map(parseWholeNumber) : values;
  return (db) => db('virtualization_virtualmachine').select('id').whereIn(column, keys);
};

/** `virtual_machine(_id)` and `vminterface(_id)` on objects assigned to interfaces through `field`. */
const assignedFilters = (field: string): Record<string, QueryFilter> => ({
  virtual_machine: pointing(field, INTERFACE, interfacesOfMachines('name')),
  virtual_machine_id: pointing(field, INTERFACE, interfacesOfMachines('id')),
  vminterface: pointing(field, INTERFACE, interfaces('name')),
  vminterface_id: pointing(field, INTERFACE, interfaces('id')),
});

/** `?available_on_virtualmachine=<id>`: VLANs the VM may use, by its site and its cluster's scope, group and self. */
function availableOnMachine(registry: ModelRegistry): QueryFilter {
  return {
    suffixes: [],
    async build(_s, values, ctx) {
      const id = parseWholeNumber(lastValue(values));
      const vm = (await ctx.db('virtualization_virtualmachine').where('id', id).first()) as Row | undefined;
      if (!vm) throw new ParamError(`Select a valid choice. ${id} is not one of the available choices.`);
      const cluster = vm.cluster_id ? ((await ctx.db('virtualization_cluster').where('id', vm.cluster_id).first()) as Row | undefined) : undefined;
      const load = async (model: Model, key: number) => (await ctx.db(model.table).where('id', key).first()) as Row | undefined;
      const place = cluster ? await placeOf(cluster, registry, load) : { site: null, location: null };
      const siteId = (vm.site_id as number | null) ?? place.site;
      const site = siteId ? await load(registry.get('dcim.site'), siteId) : undefined;
      const scope = cluster ? registry.objectTypes.keyOf(cluster.scope_type_id as number) : undefined;
      return usableAt({
        site: siteId,
        regions: [...present(site?.region_id), ...(scope === 'dcim.region' ? present(cluster!.scope_id) : [])],
        siteGroups: [...present(site?.group_id), ...(scope === 'dcim.sitegroup' ? present(cluster!.scope_id) : [])],
        locations: present(place.location),
        rack: null,
        cluster: (cluster?.id as number | undefined) ?? null,
        clusterGroup: (cluster?.group_id as number | null | undefined) ?? null,
      });
    },
  };
}

/**
 * The filters NetBox's other apps have along virtual machines: addresses, MAC addresses, FHRP assignments and
 * services by VM and VM interface, VLANs available on a VM or on a VM interface, VLAN groups by cluster, devices by
 * cluster group. Added by this plugin, so the other apps work without it.
 */
export function filtersElsewhere(registry: ModelRegistry): FilterExtension {
  const clusterGroup = () => registry.get('virtualization.clustergroup');
  const byModel: Record<string, () => Record<string, QueryFilter>> = {
    'ipam.ipaddress': () => assignedFilters('assigned_object'),
    'dcim.macaddress': () => assignedFilters('assigned_object'),
    'ipam.fhrpgroupassignment': () => {
      const { virtual_machine, virtual_machine_id } = assignedFilters('interface');
      return { virtual_machine, virtual_machine_id };
    },
    'ipam.service': () => ({
      virtual_machine: pointing('parent_object', 'virtualization.virtualmachine', machines('name')),
      virtual_machine_id: pointing('parent_object', 'virtualization.virtualmachine', machines('id')),
    }),
    'ipam.vlan': () => ({
      available_on_virtualmachine: availableOnMachine(registry),
      vminterface_id: vlansOfInterface('virtualization_vminterface', 'virtualization_vminterface_tagged_vlans', 'vminterface_id'),
    }),
    'ipam.vlangroup': () => ({ cluster: scopedTo('virtualization.cluster'), cluster_group: scopedTo('virtualization.clustergroup') }),
    'dcim.device': () => ({
      cluster_group_id: relationFilter(['cluster', 'group'], clusterGroup(), 'id', false),
      cluster_group: relationFilter(['cluster', 'group'], clusterGroup(), 'slug', false),
    }),
  };
  return { appliesTo: (model) => model.key in byModel, filters: (model) => byModel[model.key]() };
}
