import { ValidationError, defineModel, f, type Row, type ValidateContext } from '../../../kernel/index.js';
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

async function checkPopulatedRange(row: Row, ctx: ValidateContext): Promise<void> {
  const range = (await ctx.db('ipam_iprange')
    .select('start_address', 'end_address')
    .where('mark_populated', true)
    .whereRaw('vrf_id is not distinct from ?', [(row.vrf_id as number | null) ?? null])
    .whereRaw('host(start_address)::inet <= host(?::inet)::inet and host(end_address)::inet >= host(?::inet)::inet', [String(row.address), String(row.address)])
    .first()) as Row | undefined;
  if (range) {
    throw ValidationError.of('address', `Cannot create IP address ${withMask(String(row.address))} inside range ${String(range.start_address).split('/')[0]}-${String(range.end_address).split('/')[0]}.`);
  }
}

/** A device's or VDC's primary or out-of-band address stays on the interface it is on. */
async function checkPrimaryStays(row: Row, ctx: ValidateContext): Promise<void> {
  const before = ctx.instance;
  if (!before?.assigned_object_id) return;
  if (before.assigned_object_id === row.assigned_object_id && before.assigned_object_type_id === row.assigned_object_type_id) return;
  const id = row.id as number;
  const holders = await Promise.all([
    ctx.db('dcim_device').where('primary_ip4_id', id).orWhere('primary_ip6_id', id).orWhere('oob_ip_id', id).first('id'),
    ctx.db('dcim_virtualdevicecontext').where('primary_ip4_id', id).orWhere('primary_ip6_id', id).first('id'),
  ]);
  if (holders.some(Boolean)) {
    throw ValidationError.of('assigned_object', 'Cannot reassign IP address while it is designated as the primary IP for the parent object');
  }
}

export const IpAddress = defineModel('ipam.ipaddress', {
  path: 'ip-addresses',
  verboseName: 'IP address',
  verboseNamePlural: 'IP addresses',
  fields: {
    family: new FamilyField('address'),
    address: new AddressField({ hostIndex: true }),
    vrf: f.fk('ipam.vrf', { nullable: true, onDelete: 'protect', countAs: 'ipaddress_count', filterBy: 'rd' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, countAs: 'ipaddress_count' }),
    status: f.choice(IpAddressStatus, { default: 'active' }),
    role: f.choice(IpAddressRole, { blank: true }),
    assigned_object: f.generic({ feature: 'ipAddresses', nullable: true }),
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
  search: ['dns_name', 'description'],
  parent: 'assigned_object',
  filters: {
    address: networkFilter('address', 'address'),
    parent: networkFilter('address', 'parent'),
    mask_length: maskLengthFilter('address'),
    ...assignmentFilters,
    ...presentInVrfFilters,
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
  async validate(row, ctx) {
    refuseZeroMask(row, 'address', 'IP address');
    if (row.status === 'slaac' && !String(row.address).includes(':')) throw ValidationError.of('status', 'Only IPv6 addresses can be assigned SLAAC status');
    if (row.dns_name && !DNS_NAME.test(String(row.dns_name))) {
      throw ValidationError.of('dns_name', 'Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names');
    }
    if (row.nat_inside_id !== undefined && row.nat_inside_id === row.id) throw ValidationError.of('nat_inside', 'An IP address cannot be its own NAT inside address.');
    checkInterfaceAddress(row);
    await checkPopulatedRange(row, ctx);
    await checkPrimaryStays(row, ctx);
  },
  check: uniqueInVrf({
    table: 'ipam_ipaddress',
    column: 'address',
    same: 'host',
    noun: 'IP address',
    exempt: { reads: ['role'], test: (mine, theirs) => NONUNIQUE_ROLES.has(String(mine.role)) && NONUNIQUE_ROLES.has(String(theirs.role)) },
  }),
  hooks: {
    // DNS names are kept in lower case, as NetBox saves them.
    beforeSave(item) {
      if (typeof item.row.dns_name === 'string') item.columns.dns_name = item.row.dns_name.toLowerCase();
    },
  },
});
