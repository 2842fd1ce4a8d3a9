import type { Db } from '../kernel/base/types.js';
import { formatDateTime } from '../kernel/base/time.js';
import { IpAddressRole, IpAddressStatus, PrefixStatus } from '../plugins/ipam/choices.js';
import type { ChoiceSet } from '../kernel/index.js';
import { briefList, cableBrief, pathsFrom } from './dcim-baseline.js';

type Row = Record<string, unknown>;
type Handler = (url: URL) => Promise<unknown>;

const choice = (set: ChoiceSet, value: unknown) => (value === null || value === '' ? null : { value, label: set.label(value as string) });
const link = (base: string, path: string, id: unknown) => `${base}/api/${path}/${id}/`;
const links = (base: string, path: string, id: unknown) => ({ url: link(base, path, id), display_url: `${base}/${path}/${id}/` });
/** PostgreSQL leaves a full mask out of `inet` text; the API always shows it. */
const masked = (text: unknown) => (String(text).includes('/') ? String(text) : `${text}/${String(text).includes(':') ? 128 : 32}`);
const family = (text: string) => (text.includes(':') ? { value: 6, label: 'IPv6' } : { value: 4, label: 'IPv4' });

/** The custom fields of a model, each null: what an object without custom field data shows. */
async function emptyCustomFields(db: Db, model: string): Promise<Record<string, null>> {
  const rows = (await db('extras_customfield').select('name').whereRaw('? = any(object_types)', [model]).orderBy(['weight', 'name'])) as Row[];
  return Object.fromEntries(rows.map((r) => [r.name as string, null]));
}

const typeId = (app: string, model: string) => `(select id from core_objecttype where app_label = '${app}' and model = '${model}')`;

/** The tags of every object of `page`, grouped. */
const tagsOfPage = (model: string) =>
  `select ti.object_id as id, json_agg(json_build_object('id', tg.id, 'name', tg.name, 'slug', tg.slug, 'color', tg.color) order by tg.weight, tg.name) as tags
     from extras_taggeditem ti join extras_tag tg on tg.id = ti.tag_id
     where ti.object_id in (select id from page) and ti.object_type_id = ${typeId('ipam', model)} group by ti.object_id`;

function tagList(base: string, tags: Row[]) {
  return tags.map((t) => ({ id: t.id, ...links(base, 'extras/tags', t.id), display: t.name, name: t.name, slug: t.slug, color: t.color }));
}

const vrfBrief = (base: string, id: unknown, name: unknown, rd: unknown, description: unknown) =>
  id === null ? null : { id, url: link(base, 'ipam/vrfs', id), display: rd ? `${name} (${rd})` : name, name, rd, description };
const tenantBrief = (base: string, id: unknown, name: unknown, slug: unknown, description: unknown) =>
  id === null ? null : { id, url: link(base, 'tenancy/tenants', id), display: name, name, slug, description };

/**
 * GET /api/ipam/prefixes/<id>/available-ips/?limit=N by hand: the runs between the taken addresses of the prefix's
 * VRF (one window query over the host index), expanded into the first N addresses.
 */
export function availableIps(db: Db, prefixId: number): Handler {
  return async (url) => {
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const prefix = (await db('ipam_prefix').where('id', prefixId).first()) as { prefix: string; vrf_id: number | null };
    const { rows } = (await db.raw(
      `with bounds as (select host(network(?::cidr))::inet + 1 as first, host(broadcast(?::cidr))::inet - 1 as last),
       taken as (select b.first - 1 as h from bounds b
         union all select distinct host(a.address)::inet from ipam_ipaddress a, bounds b
         where a.vrf_id is not distinct from ? and host(a.address)::inet between b.first and b.last),
       runs as (select h, coalesce(lead(h) over (order by h), (select last + 1 from bounds)) as next from taken)
       select host(h + k) as address from (select * from runs where next > h + 1 order by h limit ?) r
       cross join lateral generate_series(1, least(r.next - r.h - 1, ?)) k order by h, k limit ?`,
      [prefix.prefix, prefix.prefix, prefix.vrf_id, limit, limit, limit],
    )) as { rows: { address: string }[] };
    const mask = String(prefix.prefix).split('/')[1];
    return rows.map((r) => ({ family: Number(family(r.address).value), address: `${r.address}/${mask}`, vrf: null }));
  };
}

/**
 * The addresses of the page in one statement, with their VRF, tenant, interface (its device, cable and the cable
 * path starting there) and NAT.
 */
const ADDRESS_PAGE = `with page as (select * from ipam_ipaddress order by address, id limit ?),
    outside as (select o.nat_inside_id as id, json_agg(json_build_object('id', o.id, 'address', o.address::text) order by o.address, o.id) as list
      from ipam_ipaddress o where o.nat_inside_id in (select id from page) group by o.nat_inside_id),
    tags as (${tagsOfPage('ipaddress')}),
    paths as (${pathsFrom(`array(select 'dcim.interface:' || assigned_object_id from page where assigned_object_type_id = ${typeId('dcim', 'interface')})`)})
  select p.*, p.address::text as address_text, v.name as v_name, v.rd as v_rd, v.description as v_description,
    tn.name as tn_name, tn.slug as tn_slug, tn.description as tn_description,
    i.id as i_id, i.name as i_name, i.label as i_label, i.description as i_description, i.cable_id as i_cable_id, i.mark_connected as i_mark_connected,
    ic.label as ic_label, ic.description as ic_description, pa.is_complete as i_path_complete, pa.is_active as i_path_active,
    d.id as d_id, d.name as d_name, d.asset_tag as d_asset_tag, d.description as d_description,
    case when d.name is null then (select m.name || ' ' || dt.model from dcim_devicetype dt join dcim_manufacturer m on m.id = dt.manufacturer_id where dt.id = d.device_type_id) end as d_type,
    ni.address::text as ni_address, coalesce(outside.list, '[]') as outside, coalesce(tags.tags, '[]') as tags
  from page p left join ipam_vrf v on v.id = p.vrf_id left join tenancy_tenant tn on tn.id = p.tenant_id
  left join dcim_interface i on p.assigned_object_type_id = ${typeId('dcim', 'interface')} and i.id = p.assigned_object_id
  left join dcim_device d on d.id = i.device_id left join dcim_cable ic on ic.id = i.cable_id left join paths pa on pa.origin = 'dcim.interface:' || i.id
  left join ipam_ipaddress ni on ni.id = p.nat_inside_id left join outside on outside.id = p.id left join tags on tags.id = p.id
  order by p.address, p.id`;

/** GET /api/ipam/ip-addresses/?limit=N by hand: one count, one statement for the page; JSON built by hand. */
export function ipAddressList(db: Db): Handler {
  return async (url) => {
    const base = url.origin;
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const [{ count }] = (await db('ipam_ipaddress').count({ count: '*' })) as { count: string }[];
    const [custom, { rows }] = await Promise.all([emptyCustomFields(db, 'ipam.ipaddress'), db.raw(ADDRESS_PAGE, [limit]) as Promise<{ rows: Row[] }>]);
    const nat = (id: unknown, text: unknown) => {
      const shown = masked(text);
      return { id, ...links(base, 'ipam/ip-addresses', id), display: shown, family: family(shown).value, address: shown };
    };
    const results = rows.map((r) => {
      const shown = masked(r.address_text);
      const device = r.d_name ?? `${r.d_type} (${r.d_asset_tag ?? r.d_id})`;
      const deviceDisplay = r.d_name && r.d_asset_tag ? `${r.d_name} (${r.d_asset_tag})` : device;
      return {
        id: r.id, ...links(base, 'ipam/ip-addresses', r.id), display: shown, family: family(shown), address: shown,
        vrf: vrfBrief(base, r.vrf_id, r.v_name, r.v_rd, r.v_description),
        tenant: tenantBrief(base, r.tenant_id, r.tn_name, r.tn_slug, r.tn_description),
        status: choice(IpAddressStatus, r.status), role: choice(IpAddressRole, r.role),
        assigned_object_type: r.assigned_object_type_id === null ? null : 'dcim.interface',
        assigned_object_id: r.assigned_object_id,
        assigned_object: r.i_id === null ? null : {
          id: r.i_id, url: link(base, 'dcim/interfaces', r.i_id), display: r.i_label ? `${r.i_name} (${r.i_label})` : r.i_name,
          device: { id: r.d_id, url: link(base, 'dcim/devices', r.d_id), display: deviceDisplay, name: r.d_name, description: r.d_description, display_name: deviceDisplay },
          name: r.i_name, description: r.i_description,
          cable: cableBrief(base, r.i_cable_id, r.ic_label, r.ic_description), _occupied: r.i_cable_id !== null || Boolean(r.i_mark_connected),
          // Connected or planned when a complete path starts at the interface.
          connection_status: r.i_path_complete ? { value: r.i_path_active, label: r.i_path_active ? 'Connected' : 'Planned' } : null,
        },
        nat_inside: r.nat_inside_id === null ? null : nat(r.nat_inside_id, r.ni_address),
        nat_outside: (r.outside as Row[]).map((o) => nat(o.id, o.address)),
        dns_name: r.dns_name, description: r.description, comments: r.comments,
        tags: tagList(base, r.tags as Row[]), custom_fields: custom,
        created: formatDateTime(r.created as string), last_updated: formatDateTime(r.last_updated as string),
      };
    });
    return { count: Number(count), next: null, previous: null, results };
  };
}

/** The prefixes of the page in one statement: related objects, and `children` and `_depth` over the GiST index. */
const PREFIX_PAGE = `with page as (
    select p.* from ipam_prefix p
    order by p.vrf_id asc nulls first, p.prefix, p.id limit ?),
    tags as (${tagsOfPage('prefix')})
  select p.*, p.prefix::text as prefix_text, v.name as v_name, v.rd as v_rd, v.description as v_description,
    tn.name as tn_name, tn.slug as tn_slug, tn.description as tn_description,
    s.name as s_name, s.slug as s_slug, s.description as s_description,
    vl.vid as vl_vid, vl.name as vl_name, vl.description as vl_description,
    r.name as r_name, r.slug as r_slug, r.description as r_description,
    (select count(*)::int from ipam_prefix c where c.vrf_id is not distinct from p.vrf_id and c.prefix << p.prefix) as children,
    (select count(*)::int from ipam_prefix c where c.vrf_id is not distinct from p.vrf_id and c.prefix >> p.prefix) as depth,
    coalesce(tags.tags, '[]') as tags
  from page p left join ipam_vrf v on v.id = p.vrf_id left join tenancy_tenant tn on tn.id = p.tenant_id
  left join dcim_site s on p.scope_type_id = ${typeId('dcim', 'site')} and s.id = p.scope_id
  left join ipam_vlan vl on vl.id = p.vlan_id left join ipam_role r on r.id = p.role_id left join tags on tags.id = p.id
  order by p.vrf_id asc nulls first, p.prefix, p.id`;

/** GET /api/ipam/prefixes/?limit=N by hand (prefixes scoped to sites, as the demo's): one count, one statement. */
export function prefixList(db: Db): Handler {
  return async (url) => {
    const base = url.origin;
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const [{ count }] = (await db('ipam_prefix').count({ count: '*' })) as { count: string }[];
    const [custom, { rows }] = await Promise.all([emptyCustomFields(db, 'ipam.prefix'), db.raw(PREFIX_PAGE, [limit]) as Promise<{ rows: Row[] }>]);
    const results = rows.map((r) => ({
      id: r.id, ...links(base, 'ipam/prefixes', r.id), display: r.prefix_text, family: family(String(r.prefix_text)), prefix: r.prefix_text,
      vrf: vrfBrief(base, r.vrf_id, r.v_name, r.v_rd, r.v_description),
      scope_type: r.scope_type_id === null ? null : 'dcim.site', scope_id: r.scope_id,
      scope: r.scope_id === null ? null : { id: r.scope_id, url: link(base, 'dcim/sites', r.scope_id), display: r.s_name, name: r.s_name, description: r.s_description, slug: r.s_slug },
      tenant: tenantBrief(base, r.tenant_id, r.tn_name, r.tn_slug, r.tn_description),
      vlan: r.vlan_id === null ? null : { id: r.vlan_id, url: link(base, 'ipam/vlans', r.vlan_id), display: `${r.vl_name} (${r.vl_vid})`, vid: r.vl_vid, name: r.vl_name, description: r.vl_description },
      status: choice(PrefixStatus, r.status),
      role: r.role_id === null ? null : { id: r.role_id, url: link(base, 'ipam/roles', r.role_id), display: r.r_name, name: r.r_name, slug: r.r_slug, description: r.r_description },
      is_pool: r.is_pool, mark_utilized: r.mark_utilized, description: r.description, comments: r.comments,
      tags: tagList(base, r.tags as Row[]), custom_fields: custom,
      created: formatDateTime(r.created as string), last_updated: formatDateTime(r.last_updated as string),
      children: r.children, _depth: r.depth,
    }));
    return { count: Number(count), next: null, previous: null, results };
  };
}

/** GET /api/ipam/ip-addresses/?limit=N&brief=1 by hand. */
export const ipAddressBriefList = (db: Db): Handler =>
  // The page first, then its addresses as text: a cast in the sorted statement would run for every row.
  briefList(db, 'ipam_ipaddress', `select id, address::text as address_text, description
    from (select id, address, description from ipam_ipaddress order by address, id limit ?) p order by address, id`, (base, r) => {
    const shown = masked(r.address_text);
    return { id: r.id, url: link(base, 'ipam/ip-addresses', r.id), display: shown, family: family(shown), address: shown, description: r.description };
  });

/** GET /api/ipam/prefixes/?limit=N&brief=1 by hand: the page first, then each prefix's text and depth. */
export const prefixBriefList = (db: Db): Handler =>
  briefList(db, 'ipam_prefix',
    `with page as (select p.id, p.vrf_id, p.prefix, p.description from ipam_prefix p
       order by p.vrf_id asc nulls first, p.prefix, p.id limit ?)
     select p.id, p.prefix::text as prefix_text, p.description,
       (select count(*)::int from ipam_prefix c where c.vrf_id is not distinct from p.vrf_id and c.prefix >> p.prefix) as depth
     from page p order by p.vrf_id asc nulls first, p.prefix, p.id`,
    (base, r) => ({
      id: r.id, url: link(base, 'ipam/prefixes', r.id), display: r.prefix_text, family: family(String(r.prefix_text)), prefix: r.prefix_text,
      description: r.description, _depth: r.depth,
    }));
