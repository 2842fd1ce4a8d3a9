import { ValidationError, f } from 'patchbay';
import { InventoryItemStatus } from '../../choices/index.js';
import { defineComponent } from './component.js';

export const InventoryItem = defineComponent('dcim.inventoryitem', {
  path: 'inventory-items',
  verboseName: 'inventory item',
  countAs: 'inventory_item_count',
  modular: false,
  movable: true,
  fields: {
    parent: f.parent('dcim.inventoryitem', { related: 'child_items' }),
    status: f.choice(InventoryItemStatus, { default: 'active' }),
    role: f.fk('dcim.inventoryitemrole', { nullable: true, onDelete: 'protect', countAs: 'inventoryitem_count', related: 'inventory_items' }),
    manufacturer: f.fk('dcim.manufacturer', { nullable: true, onDelete: 'protect', countAs: 'inventoryitem_count', related: 'inventory_items' }),
    part_id: f.string({ max: 50, blank: true }),
    serial: f.string({ max: 50, blank: true }),
    asset_tag: f.string({ max: 50, nullable: true, blank: true, unique: true }),
    discovered: f.boolean({ default: false }),
  },
  tail: { component: f.generic({ feature: 'inventoryTarget', nullable: true }) },
  unique: [{ fields: ['device', 'parent', 'name'] }],
  brief: ['device', 'name', 'description', '_depth'],
  ordering: ['device__id', 'parent__id', 'name'],
  search: ['name', 'asset_tag', 'serial', 'part_id', 'description'],
  async validate(row, ctx) {
    if (row.id !== undefined && row.parent_id === row.id) throw ValidationError.of('parent', 'Cannot assign self as parent.');
    if (row.parent_id) {
      const parent = await ctx.stored(InventoryItem, row.parent_id as number);
      if (parent && parent.device_id !== row.device_id) throw ValidationError.of('parent', 'Parent inventory item does not belong to the same device.');
    }
    const component = ctx.values.component as { model: string; id: number } | null | undefined;
    if (component) {
      const target = await ctx.stored(ctx.registry.get(component.model), component.id);
      if (target && target.device_id !== row.device_id) throw ValidationError.of('device', 'Cannot assign inventory item to component on another device');
    }
  },
});
