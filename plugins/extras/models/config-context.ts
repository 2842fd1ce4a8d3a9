import { ValidationError, checkJsonSchema, defineModel, f, schemaViolation } from 'patchbay';

/** A JSON Schema the data of its config contexts must satisfy. */
export const ConfigContextProfile = defineModel('extras.configcontextprofile', {
  path: 'config-context-profiles',
  verboseName: 'config context profile',
  fields: {
    name: f.string({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
    schema: f.json({ nullable: true, helpText: 'A JSON schema specifying the structure of the context data for this profile' }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
  features: ['tags', 'customFields', 'changelog'],
  validate: (_row, ctx) => {
    if (!('schema' in ctx.values)) return;
    const schema = ctx.values.schema;
    try {
      if (schema !== null && (typeof schema !== 'object' || Array.isArray(schema))) throw 'Invalid JSON schema definition';
      if (schema !== null && !(schema as Record<string, unknown>).properties) throw 'JSON schema must define properties';
      checkJsonSchema(schema);
    } catch (err) {
      if (typeof err === 'string') throw ValidationError.of('schema', err);
      throw err;
    }
  },
});

/** A many-to-many assignment of a config context: empty matches every object. Filtered as `<filterName>_id`. */
const assigned = (target: string, filterName: string) => f.m2m(target, { filterName });

/**
 * Data for the devices and virtual machines it is assigned to (by where they are, what they are, whose they are,
 * how they are tagged), merged by weight into each one's `config_context`.
 */
export const ConfigContext = defineModel('extras.configcontext', {
  path: 'config-contexts',
  verboseName: 'config context',
  fields: {
    name: f.string({ max: 100, unique: true }),
    weight: f.integer({ min: 0, max: 32767, default: 1000 }),
    profile: f.fk('extras.configcontextprofile', { nullable: true, onDelete: 'protect', related: 'config_contexts' }),
    description: f.string({ max: 200, blank: true }),
    is_active: f.boolean({ default: true }),
    regions: assigned('dcim.region', 'region'),
    site_groups: assigned('dcim.sitegroup', 'site_group'),
    sites: assigned('dcim.site', 'site'),
    locations: assigned('dcim.location', 'location'),
    device_types: assigned('dcim.devicetype', 'device_type'),
    roles: assigned('dcim.devicerole', 'role'),
    platforms: assigned('dcim.platform', 'platform'),
    cluster_types: assigned('virtualization.clustertype', 'cluster_type'),
    cluster_groups: assigned('virtualization.clustergroup', 'cluster_group'),
    clusters: assigned('virtualization.cluster', 'cluster'),
    tenant_groups: assigned('tenancy.tenantgroup', 'tenant_group'),
    tenants: assigned('tenancy.tenant', 'tenant'),
    // Not the tagged-items `tags` of other models: the tags a device must carry (any of them) for the context to apply.
    tags: f.m2m('extras.tag', { slugs: true, filterName: 'tag' }),
    data: f.json({ object: true }),
  },
  brief: ['name', 'description'],
  ordering: ['weight', 'name'],
  search: ['name', 'description', 'data:icontains'],
  relatedFilters: { device_role: 'roles' },
  features: ['changelog'],
  async validate(row, ctx) {
    const profileId = row.profile_id as number | null;
    if (!profileId) return;
    const profile = await ctx.stored(ctx.registry.get('extras.configcontextprofile'), profileId);
    if (!profile?.schema) return;
    const data = 'data' in ctx.values ? ctx.values.data : row.data;
    const violation = schemaViolation(typeof data === 'string' ? JSON.parse(data) : data, profile.schema);
    if (violation) throw new ValidationError({ non_field_errors: [`Data does not conform to profile schema: ${violation}`] });
  },
});
