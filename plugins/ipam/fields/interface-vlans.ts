import {
  ForeignKeyField, ManyToManyField, loadDisplays, not, or, parseWholeNumber,
  type CheckEntry, type Db, type ErrorMap, type FilterNode, type QueryFilter, type Row, type WriteScope,
} from 'patchbay';

/** What an interface belongs to, for the VLAN site rule: a device (dcim) or a virtual machine (virtualization). */
export interface InterfaceOwner {
  /** The interface's column naming its owner. */
  column: string;
  /** The owner's table (with a `site_id`). */
  table: string;
  /** How messages name it. */
  noun: string;
  /** How VLANs and VRFs list these interfaces (GraphQL's `interfaces`, `vminterfaces`). */
  lists: string;
}

export const DEVICE_INTERFACES: InterfaceOwner = { column: 'device_id', table: 'dcim_device', noun: "interface's parent device", lists: 'interfaces' };
export const VM_INTERFACES: InterfaceOwner = {
  column: 'virtual_machine_id', table: 'virtualization_virtualmachine', noun: "interface's parent virtual machine", lists: 'vminterfaces',
};

/** The sites of the interfaces' owners, for entries of one write. */
async function ownerSites(db: Db, owner: InterfaceOwner, entries: CheckEntry[]): Promise<Map<number, number | null>> {
  const ids = [...new Set(entries.map((e) => e.row[owner.column] as number))];
  const rows = (await db(owner.table).select('id', 'site_id').whereIn('id', ids)) as Row[];
  return new Map(rows.map((r) => [r.id as number, (r.site_id as number | null) ?? null]));
}

/** VLANs `ids` with their site, for the site rule. */
async function vlanSites(db: Db, ids: number[]): Promise<Row[]> {
  return ids.length ? ((await db('ipam_vlan').select('id', 'site_id').whereIn('id', ids)) as Row[]) : [];
}

/**
 * An interface's `untagged_vlan` (or, with `qinq`, its `qinq_svlan`): a VLAN of its owner's site, or a global
 * one; a service VLAN only on a Q-in-Q interface.
 */
export class InterfaceVlanField extends ForeignKeyField {
  constructor(private readonly owner: InterfaceOwner, private readonly kind: 'untagged' | 'qinq') {
    super('ipam.vlan', {
      nullable: true, onDelete: 'set null', label: kind === 'untagged' ? 'Untagged VLAN' : 'Q-in-Q SVLAN', related: kind === 'untagged' ? `${owner.lists}_as_untagged` : undefined,
    });
  }

  override async check(entries: CheckEntry[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
    const set = entries.filter((e) => typeof e.value === 'number');
    if (!set.length) return entries.map(() => undefined);
    const [sites, vlans] = await Promise.all([ownerSites(scope.db, this.owner, set), vlanSites(scope.db, set.map((e) => e.value as number))]);
    const names = await loadDisplays(scope.registry.get('ipam.vlan'), set.map((e) => e.value as number), { ...scope, baseUrl: '' });
    return entries.map(({ value, row }) => {
      if (typeof value !== 'number') return undefined;
      if (this.kind === 'qinq') return row.mode === 'q-in-q' ? undefined : { [this.name]: ['Only Q-in-Q interfaces may specify a service VLAN.'] };
      const site = vlans.find((v) => v.id === value)?.site_id ?? null;
      if (site === null || site === sites.get(row[this.owner.column] as number)) return undefined;
      return { [this.name]: [`The untagged VLAN (${names.get(value)}) must belong to the same site as the ${this.owner.noun}, or it must be global.`] };
    });
  }
}

/** An interface's `tagged_vlans`: only in tagged mode, each of its owner's site or global. */
export class TaggedVlansField extends ManyToManyField {
  constructor(private readonly owner: InterfaceOwner) {
    super('ipam.vlan', { label: 'Tagged VLANs', related: `${owner.lists}_as_tagged` });
  }

  /** Besides `tagged_vlans(_id)`: `?vlan_id=` and `?vlan=<vid>`, the VLAN untagged or tagged on the interface. */
  override filters(registry: Parameters<ManyToManyField['filters']>[0]): Record<string, QueryFilter> {
    return { ...super.filters(registry), vlan_id: this.byVlan('id'), vlan: this.byVlan('vid') };
  }

  override async check(entries: CheckEntry[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
    const set = entries.filter((e) => Array.isArray(e.value) && e.value.length);
    if (!set.length) return entries.map(() => undefined);
    const ids = set.flatMap((e) => e.value as number[]);
    const [sites, vlans] = await Promise.all([ownerSites(scope.db, this.owner, set), vlanSites(scope.db, ids)]);
    const names = await loadDisplays(scope.registry.get('ipam.vlan'), ids, { ...scope, baseUrl: '' });
    return entries.map(({ value, row }) => {
      const chosen = (value as number[] | undefined) ?? [];
      if (!chosen.length) return undefined;
      if (row.mode !== 'tagged') return { [this.name]: ['Tagged VLANs may be assigned only to an interface in tagged mode.'] };
      const site = sites.get(row[this.owner.column] as number) ?? null;
      const stray = chosen.find((id) => ![null, site].includes((vlans.find((v) => v.id === id)?.site_id as number | null) ?? null));
      if (stray === undefined) return undefined;
      return { [this.name]: [`VLAN ${names.get(stray)} must belong to the same site as the ${this.owner.noun}, or it must be global.`] };
    });
  }

  /** `?vlan_id=` / `?vlan=<vid>` on interfaces: the VLAN untagged or tagged on them. */
  private byVlan(key: 'id' | 'vid'): QueryFilter {
    const { table, source } = this.join;
    return {
      suffixes: ['n'],
      build: (suffix, values) => {
        const keys = values.map(parseWholeNumber);
        const node = or([
          { op: 'sql', condition: (qb, alias, _m, db) => void qb.whereIn(`${alias}.untagged_vlan_id`, db('ipam_vlan').select('id').whereIn(key, keys)) },
          { op: 'sql', condition: (qb, alias, _m, db) => void qb.whereIn(`${alias}.id`, db(`${table} as t`).join('ipam_vlan as v', 'v.id', 't.vlan_id').select(`t.${source}`).whereIn(`v.${key}`, keys)) },
        ] as FilterNode[]);
        return suffix === 'n' ? not(node) : node;
      },
    };
  }
}
