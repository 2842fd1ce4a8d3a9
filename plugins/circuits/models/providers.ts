import { defineModel, f } from 'patchbay';
import { placeFilters } from '../../ipam/api.js';

/** Who delivers circuits. */
export const Provider = defineModel('circuits.provider', {
  path: 'providers',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    accounts: f.reverse('circuits.provideraccount', 'provider', { many: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
    asns: f.m2m('ipam.asn', { countAs: 'provider_count', filterBy: 'asn', filterName: 'asn', label: 'ASNs', related: 'providers' }),
  },
  brief: ['name', 'slug', 'description', 'circuit_count'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
  // Providers with a circuit terminating there.
  filters: placeFilters('termination', {
    rows: (db) => db('circuits_circuittermination as v').join('circuits_circuit as c', 'c.id', 'v.circuit_id'),
    column: 'c.provider_id',
  }),
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});

/** `1234 (Main)`: the account, with its name when it has one. */
const accountDisplay = (row: Record<string, unknown>) => (row.name ? `${row.account} (${row.name})` : String(row.account));

/** A customer account with a provider. */
export const ProviderAccount = defineModel('circuits.provideraccount', {
  path: 'provider-accounts',
  verboseName: 'provider account',
  fields: {
    provider: f.fk('circuits.provider', { onDelete: 'protect', related: 'accounts' }),
    name: f.string({ max: 100, blank: true }),
    account: f.string({ max: 100, label: 'Account ID' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['provider', 'account'] }, { fields: ['provider', 'name'], whenSet: ['name'] }],
  brief: ['name', 'account', 'description'],
  display: accountDisplay,
  displayUses: ['account', 'name'],
  ordering: ['provider', 'account'],
  search: ['name', 'description', 'account', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});

/** A provider's network beyond the demarcation (an MPLS cloud, an internet exchange). */
export const ProviderNetwork = defineModel('circuits.providernetwork', {
  path: 'provider-networks',
  verboseName: 'provider network',
  fields: {
    provider: f.fk('circuits.provider', { onDelete: 'protect', related: 'networks' }),
    name: f.string({ max: 100 }),
    service_id: f.string({ max: 100, blank: true, label: 'Service ID' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['provider', 'name'] }],
  brief: ['name', 'description'],
  ordering: ['provider', 'name'],
  search: ['name', 'service_id', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
