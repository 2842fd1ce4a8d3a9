import type { Row, WriteSession } from 'patchbay';

/** Devices held in the bays of moved devices follow them to their site, location and rack (each change logged). */
export async function moveChildren(moved: Row[], session: WriteSession): Promise<void> {
  if (!moved.length) return;
  const parents = new Map(moved.map((d) => [d.id as number, d]));
  const bays = (await session.db('dcim_devicebay as b')
    .join('dcim_device as c', 'c.id', 'b.installed_device_id')
    .select('b.device_id', 'c.id', 'c.site_id', 'c.location_id', 'c.rack_id')
    .whereIn('b.device_id', [...parents.keys()])) as Row[];
  const targets = bays.flatMap((child) => {
    const parent = parents.get(child.device_id as number)!;
    const same = ['site_id', 'location_id', 'rack_id'].every((c) => child[c] === parent[c]);
    return same ? [] : [{ id: child.id as number, body: { site: parent.site_id, location: parent.location_id, rack: parent.rack_id } }];
  });
  if (targets.length) await session.update(session.registry.get('dcim.device'), targets, 'partial', { internal: true });
}
