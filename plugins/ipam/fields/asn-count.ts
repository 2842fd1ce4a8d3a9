import { ReadOnlyField, idArray, type FieldRenderer, type RenderContext, type Row, type ValueSchema } from 'patchbay';

/** An ASN range's `asn_count`: the ASNs between its start and end, for a whole page in one query. */
export class AsnCount extends ReadOnlyField {
  constructor() {
    super();
  }

  override reads(): string[] {
    return ['id'];
  }

  protected schema(): ValueSchema {
    return { type: 'integer' };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    // Only the ASNs the reader may view count, where the reader says so (GraphQL).
    const countable = await ctx.countable?.(ctx.registry.get('ipam.asn'));
    const { rows: counts } = ids.length
      ? ((await ctx.db.raw(
          `select r.id, count(a.id)::int as n from ipam_asnrange r join ipam_asn a on a.asn between r.start and r."end"
           where r.id = any(cast(:ids as integer[]))${countable ? ' and a.id in (:visible)' : ''} group by r.id`,
          countable ? { ids: idArray(ids), visible: countable.ids } : { ids: idArray(ids) },
        )) as { rows: { id: number; n: number }[] })
      : { rows: [] };
    const byRange = new Map(counts.map((c) => [c.id, c.n]));
    return (row, out) => {
      out[this.name] = byRange.get(row.id as number) ?? 0;
    };
  }
}
