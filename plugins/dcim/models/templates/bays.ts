import { ValidationError, f } from 'patchbay';
import { defineTemplate } from './template.js';

export const ModuleBayTemplate = defineTemplate('dcim.modulebaytemplate', {
  path: 'module-bay-templates',
  verboseName: 'module bay template',
  countAs: 'module_bay_template_count',
  fields: { position: f.string({ max: 30, blank: true }) },
});

export const DeviceBayTemplate = defineTemplate('dcim.devicebaytemplate', {
  path: 'device-bay-templates',
  verboseName: 'device bay template',
  countAs: 'device_bay_template_count',
  modular: false,
  // Only parent device types hold other devices.
  async validate(row, ctx) {
    const type = await ctx.stored(ctx.registry.get('dcim.devicetype'), row.device_type_id as number);
    if (type && type.subdevice_role !== 'parent') {
      throw ValidationError.of('__all__', `Subdevice role of device type (${type.model}) must be set to "parent" to allow device bays.`);
    }
  },
});
