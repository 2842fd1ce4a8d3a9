import type { CheckedRow, ErrorMap, Row, WriteScope } from 'patchbay';
import { withMask } from '../fields/network.js';

export interface UniqueInVrf {
  table: string;
  column: string;
  /** `network`: the same prefix; `host`: the same address, whatever the mask. */
  same: 'network' | 'host';
  /** How the message names the object ("prefix", "IP address"). */
  noun: string;
  /** Objects that may share their value (addresses whose roles both allow it), and the columns it reads. */
  exempt?: { reads: string[]; test: (mine: Row, theirs: Row) => boolean };
}

/** How NetBox names a VRF in messages: `name (rd)`, or the name alone. */
export const vrfName = (vrf: Row): string => (vrf.rd ? `${vrf.name} (${vrf.rd})` : String(vrf.name));

/**
 * NetBox's duplicate rule for prefixes and addresses: within a VRF that enforces uniqueness, or within the global
 * table when ENFORCE_GLOBAL_UNIQUE is on, a value appears once. Checked over the whole write (its own objects
 * included) under a transaction lock per VRF, so two concurrent writes cannot both add the same value.
 */
export function uniqueInVrf(rule: UniqueInVrf) {
  const keyOf = (row: Row) => {
    const value = String(row[rule.column]);
    return rule.same === 'host' ? value.split('/')[0] : value;
  };
  return async (rows: CheckedRow[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> => {
    const vrfs = scope.registry.get('ipam.vrf');
    const vrfOf = (row: Row) => (row.vrf_id ? scope.stored(vrfs, row.vrf_id as number) : Promise.resolve(undefined));
    const enforced = await Promise.all(rows.map(async ({ row }) => (row.vrf_id ? Boolean((await vrfOf(row))?.enforce_unique) : scope.settings.ENFORCE_GLOBAL_UNIQUE)));
    if (!enforced.some(Boolean)) return rows.map(() => undefined);
    const checked = rows.filter((_r, i) => enforced[i]);
    for (const key of [...new Set(checked.map(({ row }) => `${rule.table}:${row.vrf_id ?? 'global'}`))].sort()) {
      await scope.db.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
    }
    // Stored objects with one of the written values, each with the written key it matches (compared as addresses).
    const matches = rule.same === 'host' ? `host(s.${rule.column})::inet = w.k::inet` : `s.${rule.column} = w.k::cidr`;
    const ids = checked.flatMap(({ id }) => (id === undefined ? [] : [id]));
    const { rows: stored } = (await scope.db.raw(
      `select ${['id', 'vrf_id', ...(rule.exempt?.reads ?? [])].map((c) => `s.${c}`).join(', ')}, s.${rule.column}::text as value, w.k as key
       from ${rule.table} s join unnest(?::text[]) as w(k) on ${matches} where s.id <> all(?::int[])`,
      [[...new Set(checked.map(({ row }) => keyOf(row)))], ids],
    )) as { rows: Row[] };
    return Promise.all(
      rows.map(async ({ row, id }, i) => {
        if (!enforced[i]) return undefined;
        const sameTable = (other: Row) => String(other.vrf_id ?? '') === String(row.vrf_id ?? '');
        const earlier = rows.slice(0, i).filter((_r, j) => enforced[j]).map((r) => ({ ...r.row, key: keyOf(r.row), value: r.row[rule.column] }));
        const others = [...stored.filter((s) => s.id !== id), ...earlier];
        const clash = others.find((o) => sameTable(o) && o.key === keyOf(row) && !rule.exempt?.test(row, o));
        if (!clash) return undefined;
        const vrf = await vrfOf(row);
        const table = vrf ? `VRF ${vrfName(vrf)}` : 'global table';
        return { [rule.column]: [`Duplicate ${rule.noun} found in ${table}: ${withMask(String(clash.value))}`] };
      }),
    );
  };
}
