import { ValidationError, defineModel, f, schemaViolation, type Row } from 'patchbay';
import { hasTemplates } from '../rules/has-templates.js';
import { ModuleAirflow, WeightUnit } from '../choices/index.js';
import { checkWeight } from './rack-base.js';

export const ModuleType = defineModel('dcim.moduletype', {
  path: 'module-types',
  verboseName: 'module type',
  fields: {
    profile: f.fk('dcim.moduletypeprofile', { nullable: true, onDelete: 'protect', related: 'module_types' }),
    manufacturer: f.fk('dcim.manufacturer', { onDelete: 'protect', related: 'module_types' }),
    model: f.string({ max: 100 }),
    part_number: f.string({ max: 50, blank: true }),
    airflow: f.choice(ModuleAirflow, { nullable: true }),
    weight: f.decimal({ digits: 8, places: 2, min: 0, nullable: true }),
    weight_unit: f.choice(WeightUnit, { nullable: true }),
    description: f.string({ max: 200, blank: true }),
    attributes: f.json({ nullable: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['manufacturer', 'model'] }],
  brief: ['profile', 'manufacturer', 'model', 'description'],
  display: (row) => String(row.model),
  displayUses: ['model'],
  ordering: ['profile', 'manufacturer', 'model'],
  search: ['manufacturer', 'model', 'part_number', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
  filters: hasTemplates('module_type_id', ['console_ports', 'console_server_ports', 'power_ports', 'power_outlets', 'interfaces', 'pass_through_ports']),
  async validate(row, ctx) {
    checkWeight(row);
    const profile = row.profile_id ? await ctx.stored(ctx.registry.get('dcim.moduletypeprofile'), row.profile_id as number) : undefined;
    if (!profile?.schema) return;
    try {
      // As written (the row holds its encoded text), else as stored.
      const violation = schemaViolation('attributes' in ctx.values ? ctx.values.attributes : row.attributes, profile.schema);
      if (violation) throw `Invalid schema: ${violation}`;
    } catch (err) {
      if (typeof err === 'string') throw ValidationError.of('attributes', err);
      throw err;
    }
  },
  hooks: {
    // Attributes exist only as a profile's schema describes them.
    async beforeSave(item, session) {
      const profileId = item.row.profile_id as number | null;
      const profile: Row | undefined = profileId ? await session.stored(session.registry.get('dcim.moduletypeprofile'), profileId) : undefined;
      if (!profile?.schema) item.columns.attributes = null;
    },
  },
});
