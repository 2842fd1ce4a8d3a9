import { ValidationError, defineModel, f, loadDisplays, type RenderContext, type Row, type SavedItem, type WriteSession } from 'patchbay';
import { ModuleStatus } from '../choices/index.js';
import { instantiateComponents, type Owner } from '../rules/instantiate.js';

/** "Slot 1: Line card X (7)": the bay's name, the module type's model and the id. */
async function moduleDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const [bays, types] = await Promise.all([
    ctx.db('dcim_modulebay').select('id', 'name').whereIn('id', rows.map((r) => r.module_bay_id as number)) as Promise<Row[]>,
    loadDisplays(ctx.registry.get('dcim.moduletype'), rows.map((r) => r.module_type_id as number), ctx),
  ]);
  const bayName = new Map(bays.map((b) => [b.id as number, String(b.name)]));
  return new Map(rows.map((r) => [r.id as number, `${bayName.get(r.module_bay_id as number) ?? ''}: ${types.get(r.module_type_id as number) ?? ''} (${r.id})`]));
}

/** A new module's bay positions, outermost first, for `{module}` in its templates' names. */
async function owners(items: SavedItem[], session: WriteSession): Promise<Owner[]> {
  const bays = session.registry.get('dcim.modulebay');
  return Promise.all(
    items.map(async ({ row }) => {
      const positions: string[] = [];
      let bay = await session.stored(bays, row.module_bay_id as number);
      for (let depth = 0; bay && depth < 32; depth++) {
        positions.unshift(String(bay.position ?? ''));
        const outer = bay.module_id ? await session.stored(Module, bay.module_id as number) : undefined;
        bay = outer ? await session.stored(bays, outer.module_bay_id as number) : undefined;
      }
      const device = (await session.stored(session.registry.get('dcim.device'), row.device_id as number))!;
      return { device, module: row, positions };
    }),
  );
}

export const Module = defineModel('dcim.module', {
  path: 'modules',
  fields: {
    device: f.fk('dcim.device', { onDelete: 'cascade', related: 'modules' }),
    module_bay: f.fk('dcim.modulebay', { onDelete: 'cascade', unique: true, nested: ['id', 'url', 'display_url', 'display', 'name'] }),
    module_type: f.fk('dcim.moduletype', { onDelete: 'protect', filterBy: 'model', related: 'instances' }),
    status: f.choice(ModuleStatus, { default: 'active' }),
    serial: f.string({ max: 50, blank: true }),
    asset_tag: f.string({ max: 50, nullable: true, blank: true, unique: true }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['device', 'module_bay', 'module_type', 'description'],
  displayLoader: moduleDisplays,
  displayUses: ['module_bay', 'module_type'],
  ordering: ['module_bay'],
  search: ['device', 'serial', 'asset_tag', 'description', 'comments'],
  relatedFilters: {
    region: 'device__site__region', site_group: 'device__site__group', site: 'device__site', location: 'device__location', rack: 'device__rack',
    manufacturer: 'module_type__manufacturer',
  },
  features: ['tags', 'customFields', 'changelog', 'journal'],
  async validate(row, ctx) {
    const bays = ctx.registry.get('dcim.modulebay');
    const bay = await ctx.stored(bays, row.module_bay_id as number);
    if (!bay) return;
    if (bay.device_id !== row.device_id) {
      const device = await ctx.stored(ctx.registry.get('dcim.device'), row.device_id as number);
      throw ValidationError.of('__all__', `Module must be installed within a module bay belonging to the assigned device (${device?.name ?? row.device_id}).`);
    }
    // The bay may not belong to this module, or to a module installed further down in it.
    const seen = new Set<number>();
    for (let current: Row | undefined = bay; current?.module_id; ) {
      const outer = await ctx.stored(Module, current.module_id as number);
      if (!outer || outer.id === row.id || seen.has(outer.id as number)) {
        if (outer) throw ValidationError.of('__all__', 'A module bay cannot belong to a module installed within it.');
        return;
      }
      seen.add(outer.id as number);
      current = await ctx.stored(bays, outer.module_bay_id as number);
    }
  },
  hooks: {
    // Installing a module creates its type's components on the device, `{module}` replaced by the bay position.
    async afterSave(items, session) {
      const created = items.filter((i) => i.action === 'create');
      if (created.length) await instantiateComponents(session, await owners(created, session));
    },
  },
});
