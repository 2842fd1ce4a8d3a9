import { defineModel, f } from 'patchbay';
import { SiteStatus } from '../choices/index.js';

export const Site = defineModel('dcim.site', {
  path: 'sites',
  fields: {
    name: f.string({ max: 100, unique: true, helpText: 'Full name of the site' }),
    slug: f.slug({ max: 100, unique: true }),
    status: f.choice(SiteStatus, { default: 'active' }),
    region: f.fk('dcim.region', { nullable: true, countAs: 'site_count', related: 'sites' }),
    group: f.fk('dcim.sitegroup', { nullable: true, countAs: 'site_count', related: 'sites' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, countAs: 'site_count', related: 'sites' }),
    facility: f.string({ max: 50, blank: true, helpText: 'Local facility ID or description' }),
    time_zone: f.timezone(),
    description: f.string({ max: 200, blank: true }),
    physical_address: f.string({ max: 200, blank: true }),
    shipping_address: f.string({ max: 200, blank: true }),
    latitude: f.decimal({ digits: 8, places: 6, min: -90, max: 90, nullable: true, helpText: 'GPS coordinate in decimal format (xx.yyyyyy)' }),
    longitude: f.decimal({ digits: 9, places: 6, min: -180, max: 180, nullable: true, helpText: 'GPS coordinate in decimal format (xx.yyyyyy)' }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'description', 'slug'],
  ordering: ['name'],
  search: ['name', 'facility', 'description', 'physical_address', 'shipping_address', 'comments', 'asns__asn'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments'],
});
