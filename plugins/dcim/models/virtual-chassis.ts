import { ValidationError, defineModel, f } from 'patchbay';

const MEMBER = ['id', 'url', 'display_url', 'display', 'name'];

export const VirtualChassis = defineModel('dcim.virtualchassis', {
  path: 'virtual-chassis',
  verboseName: 'virtual chassis',
  verboseNamePlural: 'virtual chassis',
  fields: {
    name: f.string({ max: 64, natural: true }),
    domain: f.string({ max: 30, blank: true }),
    master: f.fk('dcim.device', { nullable: true, onDelete: 'protect', unique: true, nested: MEMBER }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
    members: f.reverse('dcim.device', 'virtual_chassis', { many: true, nested: MEMBER }),
  },
  brief: ['name', 'master', 'description', 'member_count'],
  ordering: ['name'],
  search: ['name', 'domain', 'description', 'members__name'],
  relatedFilters: { region: 'master__site__region', site_group: 'master__site__group', site: 'master__site', tenant: 'master__tenant' },
  features: ['tags', 'customFields', 'changelog', 'journal'],
  // The master must be one of the members (checked once the chassis exists, as NetBox does).
  async validate(row, ctx) {
    if (!ctx.instance || !row.master_id) return;
    const master = await ctx.stored(ctx.registry.get('dcim.device'), row.master_id as number);
    if (master && master.virtual_chassis_id !== row.id) {
      throw ValidationError.of('master', `The selected master (${master.name ?? master.id}) is not assigned to this virtual chassis.`);
    }
  },
  hooks: {
    // Members leave the chassis with their positions cleared, each change logged.
    async beforeDelete(rows, session) {
      const devices = session.registry.get('dcim.device');
      const members = (await session.db(devices.table).whereIn('virtual_chassis_id', rows.map((r) => r.id as number)).orderBy('id').pluck('id')) as number[];
      if (members.length) {
        await session.update(devices, members.map((id) => ({ id, body: { vc_position: null, vc_priority: null, virtual_chassis: null } })), 'partial', { internal: true });
      }
    },
  },
});
