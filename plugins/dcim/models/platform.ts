import { ParamError, cmp, defineModel, f, lastValue, or, parseWholeNumber, type Row } from 'patchbay';

export const Platform = defineModel('dcim.platform', {
  path: 'platforms',
  fields: {
    parent: f.parent('dcim.platform', { nested: ['id', 'url', 'display_url', 'display', 'name'], related: 'children' }),
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    manufacturer: f.fk('dcim.manufacturer', { nullable: true, onDelete: 'protect', countAs: 'platform_count', related: 'platforms' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [
    { fields: ['manufacturer', 'name'] },
    { fields: ['name'], whenNull: ['manufacturer'], message: 'Platform name must be unique.' },
    { fields: ['manufacturer', 'slug'] },
    { fields: ['slug'], whenNull: ['manufacturer'], message: 'Platform slug must be unique.' },
  ],
  brief: ['name', 'slug', 'description', 'device_count', '_depth'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'configTemplates'],
  filters: {
    // Platforms a device of this type may run: of no manufacturer, or of the type's.
    available_for_device_type: {
      suffixes: [],
      async build(_s, values, ctx) {
        const id = parseWholeNumber(lastValue(values));
        const type = (await ctx.db('dcim_devicetype').select('manufacturer_id').where('id', id).first()) as Row | undefined;
        if (!type) throw new ParamError(`Select a valid choice. ${id} is not one of the available choices.`);
        return or([cmp(['manufacturer'], 'isnull', true), cmp(['manufacturer'], 'in', [type.manufacturer_id])]);
      },
    },
  },
});
