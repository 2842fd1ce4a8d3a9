import { defineModel, f } from 'patchbay';

export const InventoryItemRole = defineModel('dcim.inventoryitemrole', {
  path: 'inventory-item-roles',
  verboseName: 'inventory item role',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    color: f.color({ default: '9e9e9e' }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'slug', 'description', 'inventoryitem_count'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
