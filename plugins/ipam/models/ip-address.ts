import { ValidationError, defineModel, f, type CheckedRow, type ErrorMap, type ModelRegistry, type Row, type WriteScope } from 'patchbay';
import { PrimaryIpField } from '../fields/primary-ip.js';
import { IpAddressRole, IpAddressStatus, NONUNIQUE_ROLES } from '../choices.js';
import { FamilyField } from '../fields/family.js';
import { AddressField, bounds, parseIp, withMask } from '../fields/network.js';
import { assignmentFilters } from '../rules/assignment-filters.js';
import { maskLengthFilter, networkFilter } from '../rules/network-filters.js';
import { presentInVrfFilters } from '../rules/present-in-vrf.js';
import { uniqueInVrf } from '../rules/unique-in-vrf.js';
import { refuseZeroMask } from '../rules/zero-mask.js';

const NESTED = ['id', 'url', 'display_url', 'display', 'family', 'address'];

/** NetBox's DNS name rule: labels of letters, digits, `-` and `_`, or `*`, dot-separated. */
const DNS_NAME = /^([0-9A-Za-z_-]+|\*)(\.[0-9A-Za-z_-]+)*\.?$/;

/** An interface may not take a subnet's network ID or (IPv4) broadcast address: /31, /32, /127 and /128 have none. */
function checkInterfaceAddress(row: Row): void {
  if (!row.assigned_object_id) return;
  const ip = parseIp(withMask(String(row.address)));
  if (!ip) return;
  const bits = ip.family === 4 ? 32 : 128;
  if (ip.length >= bits - 1) return;
  const text = `${ip.address}/${ip.length}`;
  const { network, broadcast } = bounds(text, ip.family);
  if (ip.address === network) throw ValidationError.of('address', `${text} is a network ID, which may not be assigned to an interface.`);
  if (ip.family === 4 && ip.address === broadcast) throw ValidationError.of('address', `${text} is a broadcast address, which may not be assigned to an interface.`);
}

/** No new address inside a range marked populated (of the same VRF): checked for the whole write in one statement. */
async function checkPopulatedRanges(rows: CheckedRow[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
  const { rows: hits } = (await scope.db.raw(
    `select w.n, host(r.start_address) as s, host(r.end_address) as e
     from jsonb_to_recordset(?::jsonb) as w(n int, a inet, v int)
     join ipam_iprange r on r.mark_populated and r.vrf_id is not distinct from w.v
       and host(r.start_address)::inet <= host(w.a)::inet and host(r.end_address)::inet >= host(w.a)::inet`,
    [JSON.stringify(rows.map(({ row }, n) => ({ n, a: String(row.address), v: row.vrf_id ?? null })))],
  )) as { rows: { n: number; s: string; e: string }[] };
  return rows.map(({ row }, n) => {
    const range = hits.find((h) => h.n === n);
    return range && { address: [`Cannot create IP address ${withMask(String(row.address))} inside range ${range.s}-${range.e}.`] };
  });
}

/** Where addresses are held as primary or out-of-band ones: every table with a PrimaryIpField, and its column. */
function primaryHolders(registry: ModelRegistry): { table: string; column: string }[] {
  return registry.all().flatMap((model) =>
    [...model.fields, ...registry.contributedFields(model)].flatMap((field) => (field instanceof PrimaryIpField ? [{ table: model.table, column: field.column }] : [])),
  );
}

/** An address that is some object's primary or out-of-band one stays on the interface it is on. */
async function checkPrimaryStays(rows: CheckedRow[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
  const moved = await Promise.all(
    rows.map(async ({ row, id }) => {
      const before = id === undefined ? undefined : await scope.stored(IpAddress, id);
      return Boolean(before?.assigned_object_id) && (before!.assigned_object_id !== row.assigned_object_id || before!.assigned_object_type_id !== row.assigned_object_type_id);
    }),
  );
  const ids = rows.flatMap(({ id }, n) => (moved[n] ? [id as number] : []));
  if (!ids.length) return rows.map(() => undefined);
  const holders = primaryHolders(scope.registry);
  const { rows: held } = (await scope.db.raw(holders.map(({ table, column }) => `select ${column} as id from ${table} where ${column} = any(?)`).join(' union '), holders.map(() => ids))) as {
    rows: { id: number }[];
  };
  const kept = new Set(held.map((h) => h.id));
  return rows.map(({ id }) => (id !== undefined && kept.has(id) ? { assigned_object: ['Cannot reassign IP address while it is designated as the primary IP for the parent object'] } : undefined));
}

export const IpAddress = defineModel('ipam.ipaddress', {
  path: 'ip-addresses',
  verboseName: 'IP address',
  verboseNamePlural: 'IP addresses',
  fields: {
    family: new FamilyField('address'),
    address: new AddressField({ hostIndex: true }),
    vrf: f.fk('ipam.vrf', { nullable: true, onDelete: 'protect', countAs: 'ipaddress_count', filterBy: 'rd', related: 'ip_addresses' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, countAs: 'ipaddress_count', related: 'ip_addresses' }),
    status: f.choice(IpAddressStatus, { default: 'active' }),
    role: f.choice(IpAddressRole, { blank: true }),
    // The interface nested here is NetBox 4.4's plus the cabling state spec §2.3 names.
    assigned_object: f.generic({
      feature: 'ipAddresses', nullable: true,
      nested: { 'dcim.interface': ['id', 'url', 'display', 'device', 'name', 'description', 'cable', '_occupied', 'connection_status'] },
      related: 'ip_addresses',
      union: 'IPAddressAssignmentType',
    }),
    nat_inside: f.fk('ipam.ipaddress', { nullable: true, nested: NESTED }),
    nat_outside: f.reverse('ipam.ipaddress', 'nat_inside', { many: true, nested: NESTED }),
    dns_name: f.string({ max: 255, blank: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['family', 'address', 'description'],
  display: (row) => withMask(String(row.address)),
  displayUses: ['address'],
  ordering: ['address', 'id'],
  search: ['dns_name', 'description', 'address:istartswith'],
  parent: 'assigned_object',
  filters: {
    address: networkFilter('address', 'address'),
    parent: networkFilter('address', 'parent'),
    mask_length: maskLengthFilter('address'),
    ...assignmentFilters,
    ...presentInVrfFilters,
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
  validate(row) {
    refuseZeroMask(row, 'address', 'IP address');
    if (row.status === 'slaac' && !String(row.address).includes(':')) throw ValidationError.of('status', 'Only IPv6 addresses can be assigned SLAAC status');
    if (row.dns_name && !DNS_NAME.test(String(row.dns_name))) {
      throw ValidationError.of('dns_name', 'Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names');
    }
    if (row.nat_inside_id !== undefined && row.nat_inside_id === row.id) throw ValidationError.of('nat_inside', 'An IP address cannot be its own NAT inside address.');
    checkInterfaceAddress(row);
  },
  check: [
    uniqueInVrf({
      table: 'ipam_ipaddress',
      column: 'address',
      same: 'host',
      noun: 'IP address',
      exempt: { reads: ['role'], test: (mine, theirs) => NONUNIQUE_ROLES.has(String(mine.role)) && NONUNIQUE_ROLES.has(String(theirs.role)) },
    }),
    checkPopulatedRanges,
    checkPrimaryStays,
  ],
  hooks: {
    // DNS names are kept in lower case, as NetBox saves them.
    beforeSave(item) {
      if (typeof item.row.dns_name === 'string') item.columns.dns_name = item.row.dns_name.toLowerCase();
    },
  },
});
