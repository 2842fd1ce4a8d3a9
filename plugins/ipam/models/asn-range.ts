import { ValidationError, defineModel, f } from 'patchbay';
import { AsnCount } from '../fields/asn-count.js';

/** 32-bit AS numbers (RFC 6793); 0 is reserved. */
export const ASN_MIN = 1;
export const ASN_MAX = 4294967295;

export const AsnRange = defineModel('ipam.asnrange', {
  path: 'asn-ranges',
  verboseName: 'ASN range',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    rir: f.fk('ipam.rir', { onDelete: 'protect', related: 'asn_ranges' }),
    start: f.integer({ min: ASN_MIN, max: ASN_MAX, big: true }),
    end: f.integer({ min: ASN_MIN, max: ASN_MAX, big: true }),
    tenant: f.fk('tenancy.tenant', { nullable: true, related: 'asn_ranges' }),
    description: f.string({ max: 200, blank: true }),
    asn_count: new AsnCount(),
  },
  brief: ['name', 'description'],
  display: (row) => `${row.name} (${row.start}-${row.end})`,
  displayUses: ['name', 'start', 'end'],
  ordering: ['name'],
  search: ['name', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
  validate(row) {
    if (Number(row.end) <= Number(row.start)) throw ValidationError.of('__all__', `Starting ASN (${row.start}) must be lower than ending ASN (${row.end}).`);
  },
});
