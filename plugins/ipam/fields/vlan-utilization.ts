import { ReadOnlyField, type FieldRenderer, type RenderContext, type Row, type ValueSchema } from 'patchbay';
import { rangesOf } from './vid-ranges.js';

/** Python's `str()` of a float rounded to 2 places, as NetBox prints utilization (`50.0`, `0.05`). */
const pythonFloat = (n: number): string => (Number.isInteger(n) ? `${n}.0` : String(n));

/** A VLAN group's `utilization`: its VLANs as a percentage of the IDs its ranges hold, for a page in one query. */
export class VlanGroupUtilization extends ReadOnlyField {
  constructor() {
    super();
  }

  override reads(): string[] {
    return ['id', 'vid_ranges'];
  }

  protected schema(): ValueSchema {
    return { type: 'string' };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const counts = ids.length
      ? ((await ctx.db('ipam_vlan').select('group_id').count({ n: '*' }).whereIn('group_id', ids).groupBy('group_id')) as { group_id: number; n: string }[])
      : [];
    const byGroup = new Map(counts.map((c) => [c.group_id, Number(c.n)]));
    return (row, out) => {
      const total = rangesOf(row.vid_ranges).reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
      const used = byGroup.get(row.id as number) ?? 0;
      out[this.name] = pythonFloat(Math.round((used * 10000) / total) / 100);
    };
  }
}
