import { defineModel, f } from 'patchbay';

export const Tag = defineModel('extras.tag', {
  path: 'tags',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    color: f.color({ default: '9e9e9e' }),
    description: f.string({ max: 200, blank: true }),
    weight: f.integer({ min: 0, max: 32767, default: 1000 }),
    object_types: f.list({
      sqlType: 'varchar(100)[]',
      required: false,
      default: [],
      item: (value, registry) => {
        if (typeof value !== 'string' || !registry.find(value)?.features.has('tags')) throw `Invalid content type: ${String(value)}`;
        return value;
      },
    }),
  },
  brief: ['display_url', 'name', 'slug', 'color'],
  ordering: ['weight', 'name'],
  search: ['name', 'slug', 'description'],
  features: ['changelog'],
});
