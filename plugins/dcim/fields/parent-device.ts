import { ReadOnlyField, type FieldRenderer, type JsonObject, type RenderContext, type Row, type ValueSchema } from 'patchbay';

/**
 * A child device's `parent_device`: the device whose bay holds it, with that bay (`{id, url, display_url, display,
 * name, device_bay: {…}}`), or null; read-only (a bay's `installed_device` is written), loaded for a page at once.
 */
export class ParentDeviceField extends ReadOnlyField {
  constructor() {
    super({ nullable: true });
  }

  protected schema(): ValueSchema {
    return { type: 'object', relation: 'dcim.device' };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const { registry } = ctx;
    const ids = rows.map((r) => r.id as number);
    const bays = ids.length ? ((await ctx.db('dcim_devicebay').select('id', 'device_id', 'installed_device_id').whereIn('installed_device_id', ids)) as Row[]) : [];
    const [parents, nestedBays] = await Promise.all([
      registry.nestedById(this.model, bays.map((b) => b.device_id as number), ctx, ['id', 'url', 'display_url', 'display', 'name']),
      registry.nestedById(registry.get('dcim.devicebay'), bays.map((b) => b.id as number), ctx, ['id', 'url', 'display_url', 'display', 'device', 'name']),
    ]);
    const byChild = new Map<number, JsonObject>();
    for (const bay of bays) {
      const parent = parents.get(bay.device_id as number);
      if (parent) byChild.set(bay.installed_device_id as number, { ...parent, device_bay: nestedBays.get(bay.id as number) ?? null });
    }
    return (row, out) => {
      out[this.name] = byChild.get(row.id as number) ?? null;
    };
  }
}
