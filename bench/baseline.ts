import { createServer, type Server } from 'node:http';
import type { Db } from '../kernel/base/types.js';
import { formatDateTime } from '../kernel/base/time.js';
import { inBatches } from '../kernel/base/batches.js';

interface TenantRow {
  id: number;
  name: string;
  slug: string;
  description: string;
  comments: string;
  created: string;
  last_updated: string;
  group_id: number | null;
  g_name: string | null;
  g_slug: string | null;
  g_description: string | null;
  g_depth: number | null;
  tags?: { id: number; name: string; slug: string; color: string }[];
  counts?: Record<string, number>;
}

/** The objects of other apps that count their tenant, by count name: what a tenant shows. */
const TENANT_COUNTS: [string, string][] = [
  ['device_count', 'dcim_device'], ['ipaddress_count', 'ipam_ipaddress'], ['prefix_count', 'ipam_prefix'], ['rack_count', 'dcim_rack'],
  ['site_count', 'dcim_site'], ['vlan_count', 'ipam_vlan'], ['vrf_count', 'ipam_vrf'], ['circuit_count', 'circuits_circuit'],
  ['cluster_count', 'virtualization_cluster'], ['virtualmachine_count', 'virtualization_virtualmachine'],
];

type Handler = (url: URL, body: unknown) => Promise<unknown>;

/** A bare node:http server answering every request with `handler`'s JSON (201 to a POST): the baseline's transport. */
export async function startBaseline(handler: Handler): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const payload = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
    const body = await handler(new URL(req.url ?? '/', `http://${req.headers.host}`), payload);
    res.statusCode = req.method === 'POST' ? 201 : 200;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(() => ok())) };
}

function tenantJson(r: TenantRow, base: string, brief: boolean, custom: Record<string, null> = {}) {
  const url = `${base}/api/tenancy/tenants/${r.id}/`;
  if (brief) return { id: r.id, url, display: r.name, name: r.name, slug: r.slug, description: r.description };
  const tags = (r.tags ?? []).map((t) => ({ id: t.id, url: `${base}/api/extras/tags/${t.id}/`, display_url: `${base}/extras/tags/${t.id}/`, display: t.name, name: t.name, slug: t.slug, color: t.color }));
  return {
    tags, custom_fields: custom, ...r.counts,
    id: r.id, url, display_url: `${base}/tenancy/tenants/${r.id}/`, display: r.name, name: r.name, slug: r.slug,
    group: r.group_id === null ? null : {
      id: r.group_id, url: `${base}/api/tenancy/tenant-groups/${r.group_id}/`, display: r.g_name, name: r.g_name,
      slug: r.g_slug, description: r.g_description, tenant_count: 0, _depth: r.g_depth,
    },
    description: r.description, comments: r.comments,
    created: formatDateTime(r.created), last_updated: formatDateTime(r.last_updated),
  };
}

/** The tenant custom fields, each null: what a tenant without custom field data shows. */
async function emptyCustomFields(db: Db): Promise<Record<string, null>> {
  const rows = (await db('extras_customfield').select('name').whereRaw("'tenancy.tenant' = any(object_types)").orderBy(['weight', 'name'])) as { name: string }[];
  return Object.fromEntries(rows.map((r) => [r.name, null]));
}

/** The page joined with each tenant's group and the group's depth, its tags and what counts it. */
const PAGE_WITH_GROUPS = (where: string) => `with recursive page as (select * from tenancy_tenant t ${where} order by name, id limit ?),
  anc(id, parent_id, depth) as (
    select id, parent_id, 0 from tenancy_tenantgroup where id in (select group_id from page)
    union all select anc.id, g.parent_id, anc.depth + 1 from anc join tenancy_tenantgroup g on g.id = anc.parent_id),
  depth as (select id, max(depth)::int as depth from anc group by id),
  tags as (select ti.object_id as id, json_agg(json_build_object('id', tg.id, 'name', tg.name, 'slug', tg.slug, 'color', tg.color) order by tg.weight, tg.name) as tags
    from extras_taggeditem ti join extras_tag tg on tg.id = ti.tag_id
    where ti.object_id in (select id from page) and ti.object_type_id = (select id from core_objecttype where app_label = 'tenancy' and model = 'tenant')
    group by ti.object_id)
  select page.*, g.name as g_name, g.slug as g_slug, g.description as g_description, depth.depth as g_depth, coalesce(tags.tags, '[]') as tags,
    json_build_object(${TENANT_COUNTS.map(([name, table]) => `'${name}', (select count(*)::int from ${table} c where c.tenant_id = page.id)`).join(', ')}) as counts
  from page left join tenancy_tenantgroup g on g.id = page.group_id left join depth on depth.id = g.id left join tags on tags.id = page.id
  order by page.name, page.id`;

/**
 * The hand-written equivalent of GET /api/tenancy/tenants/: one count and one query, JSON built by hand.
 * Patchbay's generic path is measured against it.
 */
export function tenantList(db: Db, brief: boolean): Handler {
  return async (url) => {
    const base = url.origin;
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const [{ count }] = (await db('tenancy_tenant').count({ count: '*' })) as { count: string }[];
    const [custom, { rows }] = await Promise.all([
      emptyCustomFields(db),
      db.raw(brief ? `select id, name, slug, description from tenancy_tenant order by name, id limit ?` : PAGE_WITH_GROUPS(''), [limit]) as Promise<{ rows: TenantRow[] }>,
    ]);
    return { count: Number(count), next: null, previous: null, results: rows.map((r) => tenantJson(r, base, brief, custom)) };
  };
}

/** The hand-written equivalent of `?q=<text>&group=<slug>` (search fields ORed, group subtree). */
export function filteredTenants(db: Db): Handler {
  return async (url) => {
    const q = `%${url.searchParams.get('q')}%`;
    const group = url.searchParams.get('group');
    const where = `where (t.name ilike :q or t.slug ilike :q or t.description ilike :q or t.comments ilike :q)
      and t.group_id in (with recursive sub(id) as (select id from tenancy_tenantgroup where slug = :group
        union select g.id from tenancy_tenantgroup g join sub on g.parent_id = sub.id) select id from sub)`;
    const [{ count }] = (await db.raw(`select count(*) from tenancy_tenant t ${where}`, { q, group })).rows as { count: string }[];
    const [custom, { rows }] = await Promise.all([
      emptyCustomFields(db),
      db.raw(PAGE_WITH_GROUPS(where).replace('limit ?', 'limit :limit'), { q, group, limit: 50 }) as Promise<{ rows: TenantRow[] }>,
    ]);
    return { count: Number(count), next: null, previous: null, results: rows.map((r) => tenantJson(r, url.origin, false, custom)) };
  };
}

/** A bulk-created tenant as the benchmark sends it. */
export interface TenantBody {
  name: string;
  slug: string;
  group: { slug: string };
  tags: number[];
  custom_fields: { cost: number };
}

/**
 * The baseline's inserts as knex writes them by hand: multi-row VALUES in statements under PostgreSQL's parameter
 * limit (Patchbay's own `insertAll` sends rows as one JSON parameter; the baseline keeps the common idiom).
 */
async function insertValues<R = Record<string, unknown>>(db: Db, table: string, rows: Record<string, unknown>[], returning?: string[]): Promise<R[]> {
  const width = new Set(rows.flatMap((r) => Object.keys(r))).size;
  const out: R[] = [];
  for (const batch of inBatches(rows, width)) {
    const query = db(table).insert(batch);
    if (returning) out.push(...((await query.returning(returning)) as R[]));
    else await query;
  }
  return out;
}

/**
 * The hand-written equivalent of POST /api/tenancy/tenants/ with a list of tenants carrying a group (by slug), tags
 * and a custom field: in one transaction, the group lookup, one insert each for the tenants, their tag links, their
 * custom field data and their change records, then the created tenants as JSON. No validation beyond the database's.
 */
export function bulkCreateTenants(db: Db, types: { tenant: number }): Handler {
  return async (url, payload) => {
    const bodies = payload as TenantBody[];
    return db.transaction(async (trx) => {
      const groups = new Map(
        ((await trx('tenancy_tenantgroup').whereIn('slug', [...new Set(bodies.map((b) => b.group.slug))]).select('id', 'slug')) as { id: number; slug: string }[]).map((g) => [g.slug, g.id]),
      );
      // Inserts in batches under PostgreSQL's 65,535 parameters.
      const rows = await insertValues<TenantRow>(
        trx, 'tenancy_tenant', bodies.map((b) => ({ name: b.name, slug: b.slug, group_id: groups.get(b.group.slug), created: trx.fn.now(), last_updated: trx.fn.now() })), ['*'],
      );
      await insertValues(trx, 'extras_taggeditem', rows.flatMap((r, i) => bodies[i].tags.map((tag) => ({ tag_id: tag, object_type_id: types.tenant, object_id: r.id }))));
      await insertValues(trx, 'extras_customfielddata', rows.map((r, i) => ({ object_type_id: types.tenant, object_id: r.id, data: JSON.stringify(bodies[i].custom_fields) })));
      await insertValues(
        trx, 'extras_objectchange', rows.map((r, i) => ({
          user_name: 'bench', request_id: '00000000-0000-0000-0000-000000000000', action: 'create', changed_object_type_id: types.tenant,
          changed_object_id: r.id, object_repr: r.name, message: '', postchange_data: JSON.stringify({ name: r.name, slug: r.slug, group: r.group_id, tags: bodies[i].tags }),
          time: trx.fn.now(), created: trx.fn.now(), last_updated: trx.fn.now(),
        })),
      );
      return rows.map((r, i) => ({
        ...tenantJson({ ...r, g_name: null, g_slug: bodies[i].group.slug, g_description: null, g_depth: null }, url.origin, false),
        tags: bodies[i].tags, custom_fields: bodies[i].custom_fields,
      }));
    });
  };
}
