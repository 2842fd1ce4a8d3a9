import { ForeignKeyField, type CheckEntry, type ErrorMap, type WriteScope } from 'patchbay';
import { placeOf } from '../rules/cluster-place.js';

/** A device's `cluster` (it hosts the cluster's VMs): a cluster at the device's site and location, or at none. */
export class DeviceClusterField extends ForeignKeyField {
  constructor() {
    super('virtualization.cluster', { nullable: true, onDelete: 'set null', countAs: 'device_count', related: 'devices' });
  }

  override async check(entries: CheckEntry[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
    const { registry } = scope;
    const stored = (model: Parameters<WriteScope['stored']>[0], id: number) => scope.stored(model, id);
    return Promise.all(
      entries.map(async ({ value, row }) => {
        if (typeof value !== 'number') return undefined;
        const cluster = await scope.stored(registry.get('virtualization.cluster'), value);
        if (!cluster) return undefined;
        const { site, location } = await placeOf(cluster, registry, stored);
        if (site !== null && site !== row.site_id) {
          return { [this.name]: [`The assigned cluster belongs to a different site (${(await stored(registry.get('dcim.site'), site))?.name})`] };
        }
        if (location !== null && location !== row.location_id) {
          return { [this.name]: [`The assigned cluster belongs to a different location (${(await stored(registry.get('dcim.location'), location))?.name})`] };
        }
        return undefined;
      }),
    );
  }
}
