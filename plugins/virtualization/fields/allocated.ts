import { ReadOnlyField, idArray, type FieldRenderer, type RenderContext, type Row, type ValueSchema } from 'patchbay';

type Resource = 'vcpus' | 'memory' | 'disk';

/**
 * A cluster's `allocated_vcpus`, `allocated_memory` or `allocated_disk`: the sum over its virtual machines, null
 * when none sets it (as NetBox annotates it). The three come for a whole page from one query.
 */
export class AllocatedField extends ReadOnlyField {
  constructor(private readonly resource: Resource) {
    super({ nullable: true });
  }

  override reads(): string[] {
    return ['id'];
  }

  protected schema(): ValueSchema {
    return this.resource === 'vcpus' ? { type: 'number' } : { type: 'integer' };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const sums = await ctx.memo.get(`virtualization.allocated:${ids.join(',')}`, async () => {
      if (!ids.length) return new Map<number, Record<Resource, string | null>>();
      const { rows: found } = (await ctx.db.raw(
        `select cluster_id as id, sum(vcpus)::text as vcpus, sum(memory)::text as memory, sum(disk)::text as disk
         from virtualization_virtualmachine where cluster_id = any(?::integer[]) group by cluster_id`,
        [idArray(ids)],
      )) as { rows: (Record<Resource, string | null> & { id: number })[] };
      return new Map(found.map((r) => [r.id, r]));
    });
    return (row, out) => {
      const sum = sums.get(row.id as number)?.[this.resource] ?? null;
      out[this.name] = sum === null ? null : Number(sum);
    };
  }
}
