import { ValidationError, defineModel, f, type CheckedRow, type ErrorMap, type WriteScope } from 'patchbay';
import { scopePlaceFilters } from '../../ipam/api.js';
import { ClusterStatus } from '../choices.js';
import { AllocatedField } from '../fields/allocated.js';
import { placeOf } from '../rules/cluster-place.js';

/** Where a cluster may be scoped, as a prefix. */
const CLUSTER_SCOPES = ['dcim.region', 'dcim.sitegroup', 'dcim.site', 'dcim.location'];

/**
 * A cluster's name is unique at its site (the site of its scope, NetBox's `_site`), checked for the whole write
 * under a lock, so two concurrent writes cannot both add the name.
 */
async function uniqueAtSite(rows: CheckedRow[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
  const stored = (model: Parameters<WriteScope['stored']>[0], id: number) => scope.stored(model, id);
  const sites = await Promise.all(rows.map(async ({ row }) => (await placeOf(row, scope.registry, stored)).site));
  if (sites.every((s) => s === null)) return rows.map(() => undefined);
  await scope.db.raw('select pg_advisory_xact_lock(hashtext(?))', ['virtualization_cluster:site']);
  const { rows: taken } = (await scope.db.raw(
    `select c.id, c.name, coalesce(case when t.model = 'site' then c.scope_id end, l.site_id) as site
     from virtualization_cluster c join core_objecttype t on t.id = c.scope_type_id
     left join dcim_location l on t.model = 'location' and l.id = c.scope_id
     where t.app_label = 'dcim' and t.model in ('site', 'location') and c.name = any(?)`,
    [rows.map(({ row }) => String(row.name))],
  )) as { rows: { id: number; name: string; site: number }[] };
  const message = { __all__: ['Cluster with this Site and Name already exists.'] };
  return rows.map(({ row, id }, n) => {
    if (sites[n] === null) return undefined;
    const clash = taken.some((c) => c.id !== id && c.name === row.name && c.site === sites[n]);
    const twin = rows.some((other, m) => m < n && sites[m] === sites[n] && other.row.name === row.name);
    return clash || twin ? message : undefined;
  });
}

export const Cluster = defineModel('virtualization.cluster', {
  path: 'clusters',
  fields: {
    name: f.string({ max: 100 }),
    type: f.fk('virtualization.clustertype', { onDelete: 'protect', countAs: 'cluster_count', related: 'clusters' }),
    group: f.fk('virtualization.clustergroup', { nullable: true, onDelete: 'protect', countAs: 'cluster_count', related: 'clusters' }),
    status: f.choice(ClusterStatus, { default: 'active' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', countAs: 'cluster_count', related: 'clusters' }),
    scope: f.generic({ models: CLUSTER_SCOPES, nullable: true, related: 'clusters' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
    allocated_vcpus: new AllocatedField('vcpus'),
    allocated_memory: new AllocatedField('memory'),
    allocated_disk: new AllocatedField('disk'),
  },
  unique: [{ fields: ['group', 'name'] }],
  brief: ['name', 'description', 'virtualmachine_count'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
  filters: scopePlaceFilters,
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
  // The host devices of a cluster at a site are at that site.
  async validate(row, ctx) {
    if (row.id === undefined) return;
    const { site } = await placeOf(row, ctx.registry, (model, id) => ctx.stored(model, id));
    if (site === null) return;
    const [{ n }] = (await ctx.db('dcim_device').where('cluster_id', row.id).whereNot('site_id', site).count({ n: '*' })) as { n: string }[];
    if (Number(n)) {
      const place = await ctx.stored(ctx.registry.get('dcim.site'), site);
      throw ValidationError.of('scope', `${n} devices are assigned as hosts for this cluster but are not in site ${place?.name}`);
    }
  },
  check: uniqueAtSite,
});
