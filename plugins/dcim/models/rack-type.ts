import { defineModel, f } from 'patchbay';
import { Rack } from './rack.js';
import { checkDimensions, clearOuterUnit, rackDimensions } from './rack-base.js';

export const RackType = defineModel('dcim.racktype', {
  path: 'rack-types',
  verboseName: 'rack type',
  fields: {
    manufacturer: f.fk('dcim.manufacturer', { onDelete: 'protect' }),
    model: f.string({ max: 100 }),
    slug: f.slug({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
    ...rackDimensions(),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['manufacturer', 'model'] }, { fields: ['manufacturer', 'slug'] }],
  brief: ['manufacturer', 'model', 'slug', 'description'],
  display: (row) => String(row.model),
  displayUses: ['model'],
  ordering: ['manufacturer', 'model'],
  search: ['model', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
  validate: checkDimensions,
  hooks: {
    beforeSave: clearOuterUnit,
    // Racks of this type take its attributes again (each change logged), as NetBox's RackType.save() does.
    async afterSave(items, session) {
      const ids = items.filter((i) => i.action === 'update').map((i) => i.row.id as number);
      if (!ids.length) return;
      const racks = (await session.db(Rack.table).whereIn('rack_type_id', ids).orderBy('id').pluck('id')) as number[];
      if (racks.length) await session.update(Rack, racks.map((id) => ({ id, body: {} })), 'partial', { internal: true });
    },
  },
});
