import { ValidationError, defineModel, f } from '../../../kernel/index.js';
import { LocationStatus } from '../choices.js';

export const Location = defineModel('dcim.location', {
  path: 'locations',
  fields: {
    name: f.string({ max: 100 }),
    slug: f.slug({ max: 100 }),
    site: f.fk('dcim.site', { onDelete: 'cascade', related: 'locations' }),
    parent: f.parent('dcim.location', { nested: ['id', 'url', 'display_url', 'display', 'name', 'slug', 'rack_count', '_depth'], related: 'children' }),
    status: f.choice(LocationStatus, { default: 'active' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, related: 'locations' }),
    facility: f.string({ max: 50, blank: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [
    { fields: ['site', 'parent', 'name'] },
    { fields: ['site', 'name'], whenNull: ['parent'], message: 'A location with this name already exists within the specified site.' },
    { fields: ['site', 'parent', 'slug'] },
    { fields: ['site', 'slug'], whenNull: ['parent'], message: 'A location with this slug already exists within the specified site.' },
  ],
  brief: ['name', 'slug', 'description', 'rack_count', '_depth'],
  ordering: ['site', 'name'],
  search: ['name', 'slug', 'facility', 'description', 'comments'],
  relatedFilters: { region: 'site__region', site_group: 'site__group' },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments'],
  // A child location lives in its parent's site.
  async validate(row, ctx) {
    if (row.parent_id === null || row.parent_id === undefined) return;
    const parent = await ctx.stored(Location, row.parent_id as number);
    if (!parent || parent.site_id === row.site_id) return;
    const site = await ctx.stored(ctx.registry.get('dcim.site'), row.site_id as number);
    throw ValidationError.of('__all__', `Parent location (${parent.name}) must belong to the same site (${site?.name}).`);
  },
});
