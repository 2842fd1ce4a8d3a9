import { ValidationError, checkJsonSchema, defineModel, f } from 'patchbay';

export const ModuleTypeProfile = defineModel('dcim.moduletypeprofile', {
  path: 'module-type-profiles',
  verboseName: 'module type profile',
  fields: {
    name: f.string({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
    schema: f.json({ nullable: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
  validate(_row, ctx) {
    if (!('schema' in ctx.values)) return;
    try {
      checkJsonSchema(ctx.values.schema);
    } catch (err) {
      if (typeof err === 'string') throw ValidationError.of('schema', err);
      throw err;
    }
  },
});
