import { defineModel, f, ValidationError, constraintProblem, type ErrorMap } from 'patchbay';

export const ObjectPermission = defineModel('users.objectpermission', {
  path: 'permissions',
  // Permissions stay out of GraphQL, as in NetBox.
  graphql: false,
  verboseName: 'permission',
  fields: {
    name: f.string({ max: 100 }),
    description: f.string({ max: 200, blank: true }),
    enabled: f.boolean({ default: true }),
    object_types: f.list({
      sqlType: 'varchar(100)[]',
      nonEmpty: true,
      item: (value, registry) => {
        if (typeof value !== 'string' || !registry.find(value)) throw `Invalid content type: ${String(value)}`;
        return value;
      },
    }),
    actions: f.list({
      sqlType: 'varchar(30)[]',
      nonEmpty: true,
      item: (value) => {
        if (typeof value !== 'string' || !/^[a-z_]{1,30}$/.test(value)) throw `Invalid action: ${String(value)}`;
        return value;
      },
    }),
    constraints: f.json({ nullable: true, helpText: 'Filter (or list of filters, OR-ed) the objects must match; "$user" is the requesting user.' }),
    groups: f.m2m('users.group', { filterName: 'group' }),
    users: f.m2m('users.user', { filterName: 'user' }),
  },
  brief: ['name', 'description', 'enabled', 'object_types', 'actions'],
  features: ['changelog'],
  ordering: ['name'],
  search: ['name', 'description'],
  validate: (row, ctx) => {
    const constraints = typeof row.constraints === 'string' ? (JSON.parse(row.constraints) as unknown) : row.constraints;
    const errors: ErrorMap = {};
    for (const key of (row.object_types as string[] | undefined) ?? []) {
      const problem = constraintProblem(ctx.registry.get(key), constraints, ctx.registry, ctx.db);
      if (problem) (errors.constraints ??= []).push(`Invalid filter for ${key}: ${problem}`);
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
  },
});
