import { defineModel, existingIds, f, not, or, parseWholeNumber, type FilterNode, type RenderContext, type Row } from 'patchbay';
import { FhrpAuthType, FhrpProtocol } from '../choices.js';
import { withMask } from '../fields/network.js';

/** `name VRRPv2: 10 (192.0.2.1/24)`: the name, protocol and group ID, and the first address assigned to the group. */
async function groupDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const type = ctx.registry.objectTypes.idOf('ipam.fhrpgroup') ?? 0;
  const ids = rows.map((r) => r.id as number);
  const first = ids.length
    ? ((await ctx.db('ipam_ipaddress')
        .distinctOn('assigned_object_id')
        .select('assigned_object_id', 'address')
        .where('assigned_object_type_id', type)
        .whereIn('assigned_object_id', ids)
        .orderBy([{ column: 'assigned_object_id' }, { column: 'address' }, { column: 'id' }])) as Row[])
    : [];
  const addresses = new Map(first.map((r) => [r.assigned_object_id as number, withMask(String(r.address))]));
  return new Map(
    rows.map((r) => {
      const text = `${r.name ? `${r.name} ` : ''}${FhrpProtocol.label(r.protocol as string)}: ${r.group_id}`;
      const address = addresses.get(r.id as number);
      return [r.id as number, address ? `${text} (${address})` : text];
    }),
  );
}

export const FhrpGroup = defineModel('ipam.fhrpgroup', {
  path: 'fhrp-groups',
  verboseName: 'FHRP group',
  fields: {
    name: f.string({ max: 100, blank: true }),
    protocol: f.choice(FhrpProtocol),
    group_id: f.integer({ min: 0, max: 32767, label: 'Group ID' }),
    auth_type: f.choice(FhrpAuthType, { nullable: true, label: 'Authentication type' }),
    auth_key: f.string({ max: 255, blank: true, label: 'Authentication key' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
    ip_addresses: f.reverse('ipam.ipaddress', 'assigned_object', { many: true }),
  },
  brief: ['protocol', 'group_id', 'description'],
  displayLoader: groupDisplays,
  displayUses: ['name', 'protocol', 'group_id'],
  ordering: ['protocol', 'group_id', 'id'],
  search: ['name', 'group_id:contains', 'description'],
  filters: {
    // Groups holding an address in the network of any of these addresses (and their VRF).
    related_ip: {
      suffixes: ['n'],
      async build(suffix, values, ctx) {
        const ids = await existingIds(ctx.db, 'ipam_ipaddress', 'id', values.map(parseWholeNumber));
        const rows = (await ctx.db('ipam_ipaddress').select('id', 'address', 'vrf_id').whereIn('id', ids)) as Row[];
        const type = ctx.registry.objectTypes.idOf('ipam.fhrpgroup') ?? 0;
        const node = or(rows.map((ip): FilterNode => ({
          op: 'sql',
          condition: (qb, alias, _m, db) => {
            const held = db('ipam_ipaddress').select('assigned_object_id').where('assigned_object_type_id', type).whereRaw('host(address)::inet <<= network(?::inet)', [String(ip.address)]);
            if (ip.vrf_id) held.where('vrf_id', ip.vrf_id as number);
            else held.whereNull('vrf_id');
            qb.whereIn(`${alias}.id`, held);
          },
        })));
        return suffix === 'n' ? not(node) : node;
      },
    },
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'ipAddresses'],
});
