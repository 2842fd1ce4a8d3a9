import {
  ForeignKeyField, ReadOnlyField, cmp, lastValue, not, or, parseBoolean,
  type CheckEntry, type ErrorMap, type FieldRenderer, type QueryFilter, type RenderContext, type Row, type ValueSchema, type WriteScope,
} from 'patchbay';
import { chassisInterfaceIds } from '../../dcim/api.js';
import { withMask } from './network.js';

/** Whose addresses an object may take as its primary ones: a device's (with its chassis), a VDC's or a VM's interfaces. */
type Owner = 'device' | 'vdc' | 'vm';

const NOUN: Record<Owner, string> = { device: 'device', vdc: 'virtual device context', vm: 'VM' };

/** The interface model each owner's addresses are assigned to. */
const INTERFACES: Record<Owner, string> = { device: 'dcim.interface', vdc: 'dcim.interface', vm: 'virtualization.vminterface' };

/**
 * A device's (VDC's, VM's) `primary_ip4`, `primary_ip6` or `oob_ip`: one of its addresses. Written like any relation,
 * checked for the whole write at once: an address of the family (for the primary ones) assigned to one of the
 * object's interfaces (for a device, also its virtual chassis members' when it is the master), or the NAT outside
 * address of one. Deleting the address clears the field.
 */
export class PrimaryIpField extends ForeignKeyField {
  constructor(private readonly owner: Owner, private readonly family: 4 | 6 | null) {
    super('ipam.ipaddress', { nullable: true, unique: true, onDelete: 'set null', filterBy: 'address', label: family ? `Primary IPv${family}` : 'Out-of-band IP' });
  }

  override async check(entries: CheckEntry[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
    const given = entries.filter((e) => typeof e.value === 'number');
    if (!given.length) return entries.map(() => undefined);
    const ips = (await scope.db('ipam_ipaddress as a')
      .leftJoin('ipam_ipaddress as n', 'n.id', 'a.nat_inside_id')
      .select('a.id', 'a.address', 'a.assigned_object_type_id as type', 'a.assigned_object_id as object', 'n.assigned_object_type_id as nat_type', 'n.assigned_object_id as nat_object')
      .whereIn('a.id', given.map((e) => e.value as number))) as Row[];
    const interfaceType = scope.registry.objectTypes.idOf(INTERFACES[this.owner]);
    return Promise.all(
      entries.map(async ({ id, value }) => {
        if (typeof value !== 'number') return undefined;
        const ip = ips.find((r) => r.id === value);
        if (!ip) return undefined;
        const text = withMask(String(ip.address));
        const family = text.includes(':') ? 6 : 4;
        if (this.family && family !== this.family) return { [this.name]: [`${text} is not an IPv${this.family} address.`] };
        const theirs = id === undefined ? [] : await this.interfacesOf(id, scope);
        const on = (type: unknown, object: unknown) => type === interfaceType && theirs.includes(object as number);
        if (on(ip.type, ip.object) || (this.family && on(ip.nat_type, ip.nat_object))) return undefined;
        return { [this.name]: [`The specified IP address (${text}) is not assigned to this ${NOUN[this.owner]}.`] };
      }),
    );
  }

  /** Besides `<name>_id` and `<name>` (by address): `?has_oob_ip=true|false` for the out-of-band address. */
  override filters(registry: Parameters<ForeignKeyField['filters']>[0]): Record<string, QueryFilter> {
    const filters = super.filters(registry);
    if (this.family) return filters;
    return { ...filters, [`has_${this.name}`]: { suffixes: [], build: (_s, values) => cmp([this.name], 'isnull', !parseBoolean(lastValue(values))) } };
  }

  /** The interfaces whose addresses object `id` may take. */
  private async interfacesOf(id: number, scope: WriteScope): Promise<number[]> {
    const query = {
      device: () => chassisInterfaceIds(scope.db, 'id', [id], true),
      vdc: () => scope.db('dcim_interface_vdcs').select('interface_id as id').where('virtualdevicecontext_id', id),
      vm: () => scope.db('virtualization_vminterface').select('id').where('virtual_machine_id', id),
    }[this.owner];
    return ((await query()) as { id: number }[]).map((r) => r.id);
  }
}

/** `primary_ip`: the IPv6 primary address if there is one, else the IPv4 one (NetBox's default preference). */
export class PreferredIpField extends ReadOnlyField {
  constructor() {
    super({ nullable: true });
  }

  override reads(): string[] {
    return ['primary_ip4_id', 'primary_ip6_id'];
  }

  protected schema(): ValueSchema {
    return { type: 'object', relation: 'ipam.ipaddress' };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const chosen = (row: Row) => (row.primary_ip6_id ?? row.primary_ip4_id ?? null) as number | null;
    const ids = rows.map(chosen).filter((id): id is number => id !== null);
    const nested = await ctx.registry.nestedById(ctx.registry.get('ipam.ipaddress'), ids, ctx);
    return (row, out) => {
      const id = chosen(row);
      out[this.name] = id === null ? null : nested.get(id) ?? null;
    };
  }

  /** `?has_primary_ip=true|false`. */
  override filters(): Record<string, QueryFilter> {
    return {
      has_primary_ip: {
        suffixes: [],
        build: (_s, values) => {
          const has = or([cmp(['primary_ip4'], 'isnull', false), cmp(['primary_ip6'], 'isnull', false)]);
          return parseBoolean(lastValue(values)) ? has : not(has);
        },
      },
    };
  }
}

