import { ReadOnlyField, type FieldRenderer, type RenderContext, type Row, type ValueSchema } from 'patchbay';

/** An interface's `mac_address`: its primary MAC address object's address, read-only, loaded for a page at once. */
export class PrimaryMacField extends ReadOnlyField {
  constructor() {
    super({ nullable: true });
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'mac' };
  }

  override reads(): string[] {
    return ['primary_mac_address_id'];
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = [...new Set(rows.map((r) => r.primary_mac_address_id as number | null).filter((id): id is number => id !== null))];
    const found = ids.length ? ((await ctx.db('dcim_macaddress').select('id', 'mac_address').whereIn('id', ids)) as Row[]) : [];
    const macs = new Map(found.map((r) => [r.id as number, String(r.mac_address).toUpperCase()]));
    return (row, out) => {
      out[this.name] = macs.get(row.primary_mac_address_id as number) ?? null;
    };
  }
}
