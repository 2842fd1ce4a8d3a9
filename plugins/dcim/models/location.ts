import { ValidationError, defineModel, f, nestedGroup } from 'patchbay';
import { LocationStatus } from '../choices/index.js';

export const Location = defineModel('dcim.location', {
  path: 'locations',
  ...nestedGroup('dcim.location', {
    count: 'rack_count',
    scope: { site: f.fk('dcim.site', { onDelete: 'cascade', related: 'locations' }) },
    fields: {
      status: f.choice(LocationStatus, { default: 'active' }),
      tenant: f.fk('tenancy.tenant', { nullable: true, related: 'locations' }),
      facility: f.string({ max: 50, blank: true }),
    },
    search: ['facility'],
  }),
  ordering: ['site', 'name'],
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
