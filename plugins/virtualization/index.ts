import { definePlugin, type Field } from 'patchbay';
import { virtualizationDemoSteps } from './demo/steps.js';
import { DeviceClusterField } from './fields/device-cluster.js';
import { ClusterGroup, ClusterType } from './models/cluster-kinds.js';
import { Cluster } from './models/cluster.js';
import { VirtualDisk } from './models/virtual-disk.js';
import { VirtualMachine } from './models/virtual-machine.js';
import { VmInterface } from './models/vm-interface.js';
import { filtersElsewhere } from './rules/filters-elsewhere.js';

/** Clusters and the virtual machines they run, with their interfaces and disks. */
export default definePlugin({
  name: 'virtualization',
  label: 'Virtualization',
  version: '0.1.0',
  kernel: '^0.1.0',
  dependencies: ['tenancy', 'dcim', 'ipam'],
  basePath: '/api/virtualization/',
  models: [ClusterType, ClusterGroup, Cluster, VirtualMachine, VmInterface, VirtualDisk],
  migrations: new URL('./migrations/', import.meta.url),
  // Devices host a cluster's virtual machines.
  contributes: (model): Record<string, Field> => (model.key === 'dcim.device' ? { cluster: new DeviceClusterField() } : {}),
  // Sized by dcim's `sites`: a cluster per site.
  demo: { sizes: { 'vms-per-site': { default: 20, max: 1000, help: 'virtual machines in each site' } }, steps: (sizes, _ctx, part) => virtualizationDemoSteps(sizes, part) },
  setup(ctx) {
    ctx.filters.extend(filtersElsewhere(ctx.registry));
  },
});
