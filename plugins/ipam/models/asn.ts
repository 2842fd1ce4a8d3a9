import { defineModel, f } from 'patchbay';
import { asnSiteFilters } from '../rules/asn-site-filters.js';
import { ASN_MAX, ASN_MIN } from './asn-range.js';

/** `AS65000`; 4-byte numbers also in asdot notation (`AS131072 (2.0)`). */
function asnDisplay(asn: number): string {
  return asn >= 65536 ? `AS${asn} (${Math.floor(asn / 65536)}.${asn % 65536})` : `AS${asn}`;
}

export const Asn = defineModel('ipam.asn', {
  path: 'asns',
  verboseName: 'ASN',
  verboseNamePlural: 'ASNs',
  fields: {
    asn: f.integer({ min: ASN_MIN, max: ASN_MAX, big: true, unique: true, label: 'ASN' }),
    rir: f.fk('ipam.rir', { nullable: true, onDelete: 'protect', related: 'asns' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, related: 'asns' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['asn', 'description'],
  display: (row) => asnDisplay(Number(row.asn)),
  displayUses: ['asn'],
  ordering: ['asn'],
  search: ['asn', 'description'],
  filters: asnSiteFilters,
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
