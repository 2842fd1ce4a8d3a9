import { ValidationError, defineModel, f, type Row, type ValidateContext } from 'patchbay';
import { caseInsensitive, isSet, interfacesWithMacs, macValues } from '../../dcim/api.js';
import { VirtualMachineStatus } from '../choices.js';
import { placeOf } from '../rules/cluster-place.js';

/** The total size of a stored VM's virtual disks, or null when it has none. */
async function diskTotal(id: number, ctx: Pick<ValidateContext, 'db'>): Promise<number | null> {
  const [{ total }] = (await ctx.db('virtualization_virtualdisk').where('virtual_machine_id', id).sum({ total: 'size' })) as { total: string | null }[];
  return total === null ? null : Number(total);
}

/** NetBox's VM rules: placed at a site and/or in a cluster that agree; a host device of the cluster; disks that add up. */
async function checkVirtualMachine(row: Row, ctx: ValidateContext): Promise<void> {
  const { registry } = ctx;
  if (!row.site_id && !row.cluster_id) throw ValidationError.of('cluster', 'A virtual machine must be assigned to a site and/or cluster.');
  const cluster = row.cluster_id ? await ctx.stored(registry.get('virtualization.cluster'), row.cluster_id as number) : undefined;
  if (cluster && row.site_id) {
    const { site } = await placeOf(cluster, registry, (model, id) => ctx.stored(model, id));
    if (site !== null && site !== row.site_id) {
      const mine = await ctx.stored(registry.get('dcim.site'), row.site_id as number);
      throw ValidationError.of('cluster', `The selected cluster (${cluster.name}) is not assigned to this site (${mine?.name}).`);
    }
  }
  if (row.device_id) {
    if (!cluster) throw ValidationError.of('device', 'Must specify a cluster when assigning a host device.');
    const device = await ctx.stored(registry.get('dcim.device'), row.device_id as number);
    if (device?.cluster_id !== cluster.id) {
      throw ValidationError.of('device', `The selected device (${device?.name ?? device?.id}) is not assigned to this cluster (${cluster.name}).`);
    }
  }
  const total = row.id === undefined ? null : await diskTotal(row.id as number, ctx);
  if (total !== null && row.disk !== null && Number(row.disk) !== total) {
    throw ValidationError.of('disk', `The specified disk size (${row.disk}) must match the aggregate size of assigned virtual disks (${total}).`);
  }
}

export const VirtualMachine = defineModel('virtualization.virtualmachine', {
  path: 'virtual-machines',
  verboseName: 'virtual machine',
  fields: {
    name: f.string({ max: 64, natural: true }),
    status: f.choice(VirtualMachineStatus, { default: 'active' }),
    site: f.fk('dcim.site', { nullable: true, onDelete: 'protect', countAs: 'virtualmachine_count', related: 'virtual_machines' }),
    cluster: f.fk('virtualization.cluster', { nullable: true, onDelete: 'protect', countAs: 'virtualmachine_count', related: 'virtual_machines' }),
    device: f.fk('dcim.device', { nullable: true, onDelete: 'protect', related: 'virtual_machines' }),
    serial: f.string({ max: 50, blank: true }),
    role: f.fk('dcim.devicerole', { nullable: true, onDelete: 'protect', countAs: 'virtualmachine_count', countInBrief: true, related: 'virtual_machines' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', countAs: 'virtualmachine_count', related: 'virtual_machines' }),
    platform: f.fk('dcim.platform', { nullable: true, countAs: 'virtualmachine_count', countInBrief: true, related: 'virtual_machines' }),
    vcpus: f.decimal({ digits: 6, places: 2, min: 0.01, nullable: true, label: 'vCPUs' }),
    memory: f.integer({ min: 0, max: 2147483647, nullable: true, label: 'Memory (MB)' }),
    disk: f.integer({ min: 0, max: 2147483647, nullable: true, label: 'Disk (MB)' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
    local_context_data: f.json({ nullable: true, object: true }),
  },
  unique: [
    { fields: ['name', 'cluster', 'tenant'], lower: ['name'], message: 'Virtual machine name must be unique per cluster.' },
    { fields: ['name', 'cluster'], lower: ['name'], whenNull: ['tenant'], message: 'Virtual machine name must be unique per cluster.' },
  ],
  brief: ['name', 'description'],
  ordering: ['name', 'id'],
  search: ['name', 'description', 'comments', 'primary_ip4__address:startswith', 'primary_ip6__address:startswith', 'serial'],
  relatedFilters: { region: 'site__region', site_group: 'site__group', cluster_group: 'cluster__group', cluster_type: 'cluster__type' },
  filters: {
    name: caseInsensitive('name'),
    local_context_data: isSet('local_context_data'),
    mac_address: {
      suffixes: [],
      build: (_s, values, ctx) => {
        const macs = macValues(values);
        return {
          op: 'sql',
          condition: (qb, alias, _m, db) =>
            void qb.whereIn(`${alias}.id`, db('virtualization_vminterface').select('virtual_machine_id').whereIn('id', interfacesWithMacs(db, ctx.registry, macs, 'virtualization.vminterface'))),
        };
      },
    },
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments', 'configTemplates', 'configContexts'],
  validate: checkVirtualMachine,
  hooks: {
    // A VM in a cluster at a site is at that site; one with virtual disks has their total as its disk size.
    async beforeSave(item, session) {
      const { row } = item;
      if (row.cluster_id && !row.site_id) {
        const cluster = await session.stored(session.registry.get('virtualization.cluster'), row.cluster_id as number);
        const { site } = cluster ? await placeOf(cluster, session.registry, (model, id) => session.stored(model, id)) : { site: null };
        if (site !== null) item.columns.site_id = site;
      }
      if (item.action === 'update' && (row.disk === null || row.disk === undefined)) {
        const total = await diskTotal(row.id as number, session);
        if (total !== null) item.columns.disk = total;
      }
    },
  },
});
