import { ValidationError, defineModel, f, type Row } from 'patchbay';
import { IpRangeStatus } from '../choices.js';
import { FamilyField } from '../fields/family.js';
import { AddressField, parseIp, toBigInt, withMask } from '../fields/network.js';
import { IpRangeSize } from '../fields/range-size.js';
import { rangeFilters } from '../rules/range-filters.js';
import { vrfName } from '../rules/unique-in-vrf.js';

/** The largest range NetBox accepts. */
const MAX_SIZE = 2n ** 32n - 1n;

/**
 * NetBox's range display: the parts start and end share position by position (all of them, not only a leading
 * run), then the rest of each (`192.0.2.10/24`–`192.0.2.20/24` → `192.0.2.10-20/24`).
 */
export function rangeDisplay(start: string, end: string): string {
  const [a, mask] = withMask(start).split('/');
  const b = withMask(end).split('/')[0];
  const sep = a.includes(':') ? ':' : '.';
  const left = a.split(sep);
  const right = b.split(sep);
  const common = left.filter((part, i) => part === right[i]);
  const rest = (parts: string[]) => parts.slice(common.length).join(sep);
  return `${common.length ? `${common.join(sep)}${sep}` : ''}${rest(left)}-${rest(right)}/${mask}`;
}

export const IpRange = defineModel('ipam.iprange', {
  path: 'ip-ranges',
  verboseName: 'IP range',
  fields: {
    family: new FamilyField('start_address'),
    start_address: new AddressField({}),
    end_address: new AddressField({}),
    size: new IpRangeSize(),
    vrf: f.fk('ipam.vrf', { nullable: true, onDelete: 'protect', filterBy: 'rd', nullsFirst: true, related: 'ip_ranges' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, related: 'ip_ranges' }),
    status: f.choice(IpRangeStatus, { default: 'active' }),
    role: f.fk('ipam.role', { nullable: true, related: 'ip_ranges' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
    mark_populated: f.boolean({ default: false }),
    mark_utilized: f.boolean({ default: false }),
  },
  brief: ['family', 'start_address', 'end_address', 'description'],
  display: (row) => rangeDisplay(String(row.start_address), String(row.end_address)),
  displayUses: ['start_address', 'end_address'],
  ordering: ['vrf', 'start_address', 'id'],
  search: ['description', 'start_address:exact', 'start_address:contains', 'end_address:exact', 'end_address:contains'],
  filters: rangeFilters,
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
  // Bounds of one family and mask, in order, not overlapping another range of the VRF (checked under a lock).
  async validate(row, ctx) {
    const start = parseIp(withMask(String(row.start_address)))!;
    const end = parseIp(withMask(String(row.end_address)))!;
    if (start.family !== end.family) throw ValidationError.of('end_address', 'Starting and ending IP address versions must match');
    if (start.length !== end.length) throw ValidationError.of('end_address', 'Starting and ending IP address masks must match');
    const size = toBigInt(end.address) - toBigInt(start.address) + 1n;
    if (size <= 1n) throw ValidationError.of('end_address', `Ending address must be greater than the starting address (${start.address}/${start.length})`);
    if (size > MAX_SIZE) throw ValidationError.of('__all__', `Defined range exceeds maximum supported size (${MAX_SIZE})`);
    await ctx.db.raw('select pg_advisory_xact_lock(hashtext(?))', [`ipam_iprange:${row.vrf_id ?? 'global'}`]);
    const overlapping = (await ctx.db('ipam_iprange')
      .select('start_address', 'end_address')
      .whereRaw('vrf_id is not distinct from ?', [(row.vrf_id as number | null) ?? null])
      .whereNot('id', (row.id as number | undefined) ?? 0)
      .whereRaw('host(start_address)::inet <= ?::inet and host(end_address)::inet >= ?::inet', [end.address, start.address])
      .first()) as Row | undefined;
    if (overlapping) {
      const vrf = row.vrf_id ? await ctx.stored(ctx.registry.get('ipam.vrf'), row.vrf_id as number) : undefined;
      const range = rangeDisplay(String(overlapping.start_address), String(overlapping.end_address));
      throw ValidationError.of('__all__', `Defined addresses overlap with range ${range} in VRF ${vrf ? vrfName(vrf) : 'None'}`);
    }
  },
});
