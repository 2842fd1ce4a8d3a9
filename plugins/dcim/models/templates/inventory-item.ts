import { f } from 'patchbay';
import { defineTemplate } from './template.js';

export const InventoryItemTemplate = defineTemplate('dcim.inventoryitemtemplate', {
  path: 'inventory-item-templates',
  verboseName: 'inventory item template',
  countAs: 'inventory_item_template_count',
  modular: false,
  fields: {
    parent: f.parent('dcim.inventoryitemtemplate', { related: 'child_items' }),
    role: f.fk('dcim.inventoryitemrole', { nullable: true, onDelete: 'protect', related: 'inventory_item_templates' }),
    manufacturer: f.fk('dcim.manufacturer', { nullable: true, onDelete: 'protect', related: 'inventory_item_templates' }),
    part_id: f.string({ max: 50, blank: true }),
    component: f.generic({ feature: 'inventoryTemplateTarget', nullable: true }),
  },
  nameUniqueWithin: ['device_type', 'parent'],
  brief: ['name', 'description', '_depth'],
  ordering: ['device_type', 'parent', 'name'],
  search: ['name', 'part_id', 'description'],
});
