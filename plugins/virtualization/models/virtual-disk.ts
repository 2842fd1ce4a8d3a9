import { defineModel, f, type Row, type WriteSession } from 'patchbay';

/** The disk size of the VMs `ids`: the total of their virtual disks, null when they have none (as NetBox keeps it). */
async function recountDisks(ids: number[], session: WriteSession): Promise<void> {
  if (!ids.length) return;
  await session.db.raw(
    `update virtualization_virtualmachine m set disk = (select sum(size) from virtualization_virtualdisk d where d.virtual_machine_id = m.id) where m.id = any(?)`,
    [[...new Set(ids)]],
  );
}

export const VirtualDisk = defineModel('virtualization.virtualdisk', {
  path: 'virtual-disks',
  verboseName: 'virtual disk',
  fields: {
    virtual_machine: f.fk('virtualization.virtualmachine', { onDelete: 'cascade', countAs: 'virtual_disk_count', related: 'virtualdisks' }),
    name: f.string({ max: 64, natural: true }),
    description: f.string({ max: 200, blank: true }),
    size: f.integer({ min: 0, max: 2147483647, label: 'Size (MB)' }),
  },
  unique: [{ fields: ['virtual_machine', 'name'] }],
  brief: ['virtual_machine', 'name', 'description', 'size'],
  ordering: ['virtual_machine', 'name', 'id'],
  search: ['name', 'description'],
  parent: 'virtual_machine',
  features: ['tags', 'customFields', 'changelog', 'journal'],
  hooks: {
    // A VM's disk size follows its virtual disks (both VMs when one moves).
    afterSave: (items, session) => recountDisks(items.flatMap((i) => [i.row.virtual_machine_id as number, ...(i.instance ? [i.instance.virtual_machine_id as number] : [])]), session),
    afterDelete: (rows: Row[], session) => recountDisks(rows.map((r) => r.virtual_machine_id as number), session),
  },
});
