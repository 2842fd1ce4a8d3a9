import { ValidationError, f, type Row } from 'patchbay';
import { defineComponent } from './component.js';

export const ModuleBay = defineComponent('dcim.modulebay', {
  path: 'module-bays',
  verboseName: 'module bay',
  countAs: 'module_bay_count',
  fields: {
    installed_module: f.reverse('dcim.module', 'module_bay', { nested: ['id', 'url', 'display_url', 'display', 'serial', 'description'] }),
    position: f.string({ max: 30, blank: true }),
  },
  unique: [{ fields: ['device', 'module', 'name'] }],
  brief: ['installed_module', 'name', 'description'],
  // NetBox's parent bay: the bay holding the module this bay belongs to.
  relatedFilters: { parent: 'module__module_bay' },
  // A bay may not sit in a module installed in itself (or further down its own tree).
  async validate(row, ctx) {
    const modules = ctx.registry.get('dcim.module');
    const seen = new Set<number>();
    for (let moduleId = row.module_id as number | null; moduleId; ) {
      const module = await ctx.stored(modules, moduleId);
      if (!module) return;
      if (module.module_bay_id === row.id || seen.has(module.id as number)) throw ValidationError.of('__all__', 'A module bay cannot belong to a module installed within it.');
      seen.add(module.id as number);
      const bay = await ctx.stored(ModuleBay, module.module_bay_id as number);
      moduleId = (bay?.module_id as number | null) ?? null;
    }
  },
});

export const DeviceBay = defineComponent('dcim.devicebay', {
  path: 'device-bays',
  verboseName: 'device bay',
  countAs: 'device_bay_count',
  modular: false,
  tail: { installed_device: f.fk('dcim.device', { nullable: true, unique: true }) },
  async validate(row, ctx) {
    const devices = ctx.registry.get('dcim.device');
    const device = await ctx.stored(devices, row.device_id as number);
    const type = device && (await ctx.stored(ctx.registry.get('dcim.devicetype'), device.device_type_id as number));
    if (type && type.subdevice_role !== 'parent') throw ValidationError.of('__all__', `This type of device (${type.model}) does not support device bays.`);
    if (row.installed_device_id && row.installed_device_id === row.device_id) throw ValidationError.of('__all__', 'Cannot install a device into itself.');
    if (row.installed_device_id) {
      const holder = await ctx.batch('dcim.bay-holding', row.installed_device_id as number, async (children: number[]) => {
        const bays = (await ctx.db(DeviceBay.table).select('id', 'name', 'installed_device_id').whereIn('installed_device_id', children)) as Row[];
        return children.map((child) => bays.find((b) => b.installed_device_id === child));
      });
      if (holder && holder.id !== row.id) {
        throw ValidationError.of('installed_device', `Cannot install the specified device; device is already installed in ${holder.name}.`);
      }
    }
  },
});
