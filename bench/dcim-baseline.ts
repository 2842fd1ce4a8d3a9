import type { Db } from '../kernel/base/types.js';
import { formatDateTime } from '../kernel/base/time.js';
import { DeviceAirflow, DeviceFace, DeviceStatus, InterfaceDuplex, InterfaceMode, InterfacePoEMode, InterfacePoEType, InterfaceType, WirelessChannel, WirelessRole } from '../plugins/dcim/choices/index.js';
import { TermSide } from '../plugins/circuits/choices.js';
import type { ChoiceSet } from '../kernel/index.js';

type Row = Record<string, unknown>;
type Handler = (url: URL) => Promise<unknown>;

const choice = (set: ChoiceSet, value: unknown) => (value === null || value === '' ? null : { value, label: set.label(value as string) });
const num = (value: unknown) => (value === null ? null : Number(value));

/** URLs as the API writes them (`path`: `dcim/devices`). */
export const links = (base: string, path: string, id: unknown) => ({ url: `${base}/api/${path}/${id}/`, display_url: `${base}/${path}/${id}/` });
/** "Gi0/1 (uplink)", or the name alone: how components display. */
const labelled = (name: unknown, label: unknown) => (label ? `${name} (${label})` : name);

/** A cable's brief form, null without a cable. */
export const cableBrief = (base: string, id: unknown, label: unknown, description: unknown) =>
  id === null || id === undefined ? null : { id, url: links(base, 'dcim/cables', id).url, display: label || `#${id}`, label, description };

/** A device's brief form, from columns prefixed `p` (`p_id`, `p_name`, …); the display rule for named devices. */
function deviceBrief(base: string, r: Row, p: string) {
  const name = r[`${p}_name`] as string | null;
  const tag = r[`${p}_asset_tag`] as string | null;
  const display = name ? (tag ? `${name} (${tag})` : name) : `${r[`${p}_type`]} (${tag ?? r[`${p}_id`]})`;
  return { id: r[`${p}_id`], url: links(base, 'dcim/devices', r[`${p}_id`]).url, display, name, description: r[`${p}_description`] };
}

/** A device as interfaces nest it: its brief form and `display_name` (spec §2.3). */
function interfaceDevice(base: string, r: Row, p: string) {
  const device = deviceBrief(base, r, p);
  return { ...device, display_name: device.display };
}

/** The columns of a device (aliased `alias`) deviceBrief reads, prefixed `p`. */
export const deviceColumns = (alias: string, p: string, type: string) =>
  `${alias}.id as ${p}_id, ${alias}.name as ${p}_name, ${alias}.asset_tag as ${p}_asset_tag, ${alias}.description as ${p}_description,
   case when ${alias}.name is null then (select m.name || ' ' || dt.model from dcim_devicetype dt join dcim_manufacturer m on m.id = dt.manufacturer_id where dt.id = ${type}) end as ${p}_type`;

/**
 * The cable paths starting at the nodes of `origins` (SQL giving a text[]), as rows `origin, path, is_complete,
 * is_active`: one probe of the path nodes' index per origin.
 */
export const pathsFrom = (origins: string) => `select n.node as origin, cp.path, cp.is_complete, cp.is_active
  from dcim_cablepathnode n join dcim_cablepath cp on cp.id = n.path_id where n.origin and n.node = any(${origins})`;

/** Where each kind of cable path node is served. */
const NODE_PATHS: Record<string, string> = {
  'dcim.interface': 'dcim/interfaces', 'dcim.frontport': 'dcim/front-ports', 'dcim.rearport': 'dcim/rear-ports',
  'circuits.circuittermination': 'circuits/circuit-terminations', 'circuits.providernetwork': 'circuits/provider-networks',
};

/**
 * The columns (`n_*`, `nd_*` for the device, `nc_*` for the cable it holds) and joins giving the brief form of cable
 * path nodes: the SQL expressions `model` (`dcim.interface`) and `id` name them. Interfaces, front and rear ports,
 * circuit terminations and provider networks: what an interface's link peers, connected endpoints and trace show.
 */
export function nodeSql(model: string, id: string): { columns: string; joins: string } {
  const component = (key: string, table: string) => `select name, label, description, mark_connected, device_id, cable_id, null::int as circuit_id,
      null::text as term_side from ${table} where ${model} = '${key}' and id = ${id}`;
  return {
    columns: `${model} as n_model, ${id} as n_id, n.name as n_name, n.label as n_label, n.description as n_description, n.mark_connected as n_mark_connected,
      nc.id as nc_id, nc.label as nc_label, nc.description as nc_description, ${deviceColumns('nd', 'nd', 'nd.device_type_id')},
      n.term_side as nt_side, ntc.id as ntc_id, ntc.cid as ntc_cid, ntc.description as ntc_description,
      ntp.id as ntp_id, ntp.name as ntp_name, ntp.slug as ntp_slug, ntp.description as ntp_description`,
    // An index probe per node in the table of its model, and for its device and cable (offset 0 keeps PostgreSQL from
    // hashing whole tables for the few nodes of a page, whose number it cannot estimate).
    joins: `left join lateral (${component('dcim.interface', 'dcim_interface')}
        union all ${component('dcim.frontport', 'dcim_frontport')} union all ${component('dcim.rearport', 'dcim_rearport')}
        union all select null, '', description, mark_connected, null, cable_id, circuit_id, term_side from circuits_circuittermination
          where ${model} = 'circuits.circuittermination' and id = ${id}
        union all select name, '', description, false, null, null, null, null from circuits_providernetwork where ${model} = 'circuits.providernetwork' and id = ${id}
        offset 0) n on true
      left join lateral (select * from dcim_device where id = n.device_id offset 0) nd on true
      left join lateral (select * from dcim_cable where id = n.cable_id offset 0) nc on true
      left join lateral (select * from circuits_circuit where id = n.circuit_id offset 0) ntc on true left join circuits_provider ntp on ntp.id = ntc.provider_id`,
  };
}

/** A cable path node's brief form, from nodeSql's columns. */
export function nodeBrief(base: string, r: Row): Row {
  const model = r.n_model as string;
  const { url } = links(base, NODE_PATHS[model], r.n_id);
  const cabled = { cable: cableBrief(base, r.nc_id, r.nc_label, r.nc_description), _occupied: r.nc_id !== null || Boolean(r.n_mark_connected) };
  if (model === 'circuits.providernetwork') return { id: r.n_id, url, display: r.n_name, name: r.n_name, description: r.n_description };
  if (model === 'circuits.circuittermination') {
    const provider = { id: r.ntp_id, url: links(base, 'circuits/providers', r.ntp_id).url, display: r.ntp_name, name: r.ntp_name, slug: r.ntp_slug, description: r.ntp_description };
    return {
      id: r.n_id, url, display: `${r.ntc_cid}: Termination ${r.nt_side}`,
      circuit: { id: r.ntc_id, url: links(base, 'circuits/circuits', r.ntc_id).url, display: r.ntc_cid, provider, cid: r.ntc_cid, description: r.ntc_description },
      term_side: choice(TermSide, r.nt_side), description: r.n_description, ...cabled,
    };
  }
  if (!NODE_PATHS[model]) throw new Error(`The baseline has no brief form of ${model}`);
  // Interfaces nest their device with `display_name`, ports without.
  const device = model === 'dcim.interface' ? interfaceDevice(base, r, 'nd') : deviceBrief(base, r, 'nd');
  return { id: r.n_id, url, display: labelled(r.n_name, r.n_label), device, name: r.n_name, description: r.n_description, ...cabled };
}

/** The custom fields of a model, each null: what an object without custom field data shows. */
async function emptyCustomFields(db: Db, model: string): Promise<Record<string, null>> {
  const rows = (await db('extras_customfield').select('name').whereRaw('? = any(object_types)', [model]).orderBy(['weight', 'name'])) as Row[];
  return Object.fromEntries(rows.map((r) => [r.name as string, null]));
}

/** The tags of every object of `page`, grouped: one row per tagged object. */
const tagsOfPage = (type: string) =>
  `select ti.object_id as id, json_agg(json_build_object('id', tg.id, 'name', tg.name, 'slug', tg.slug, 'color', tg.color) order by tg.weight, tg.name) as tags
     from extras_taggeditem ti join extras_tag tg on tg.id = ti.tag_id
     where ti.object_id in (select id from page) and ti.object_type_id = (select id from core_objecttype where app_label = 'dcim' and model = '${type}')
     group by ti.object_id`;

function tagList(base: string, tags: Row[]) {
  return tags.map((t) => ({ id: t.id, url: `${base}/api/extras/tags/${t.id}/`, display_url: `${base}/extras/tags/${t.id}/`, display: t.name, name: t.name, slug: t.slug, color: t.color }));
}

/** The origin node of the interface aliased `alias`, as cable paths store it. */
const origin = (alias: string) => `'dcim.interface:' || ${alias}.id`;
const NODE = nodeSql('e.model', 'e.node_id');

/**
 * The interfaces of the page (`where` filters them) in one statement, with every related object they show: the
 * cable paths starting at them, their link peers and connected endpoints.
 */
const interfacePage = (where: string) => `with page as (
    select i.* from dcim_interface i join dcim_device d on d.id = i.device_id ${where}
    order by d.name_natural, d.id, i.name_natural, i.id limit ?),
  vdcs as (select v.interface_id as id, json_agg(json_build_object('id', c.id, 'name', c.name, 'identifier', c.identifier, 'description', c.description,
        'device_id', cd.id, 'device_name', cd.name, 'device_description', cd.description) order by c.name, c.id) as list
      from dcim_interface_vdcs v join dcim_virtualdevicecontext c on c.id = v.virtualdevicecontext_id join dcim_device cd on cd.id = c.device_id
      where v.interface_id in (select id from page) group by v.interface_id),
  bridged as (select b.bridge_id as id, json_agg(json_build_object('id', b.id, 'name', b.name, 'label', b.label, 'device_id', bdv.id, 'device_name', bdv.name,
        'device_description', bdv.description, 'cable_id', bc.id, 'cable_label', bc.label, 'cable_description', bc.description, 'mark_connected', b.mark_connected) order by b.id) as list
      from dcim_interface b join dcim_device bdv on bdv.id = b.device_id left join dcim_cable bc on bc.id = b.cable_id
      where b.bridge_id in (select id from page) group by b.bridge_id),
  macs as (select a.assigned_object_id as id, json_agg(json_build_object('id', a.id, 'mac', a.mac_address::text, 'description', a.description) order by a.id) as list
      from dcim_macaddress a where a.assigned_object_id in (select id from page)
        and a.assigned_object_type_id = (select id from core_objecttype where app_label = 'dcim' and model = 'interface') group by a.assigned_object_id),
  tagged as (select tv.interface_id as id, json_agg(json_build_object('id', v.id, 'vid', v.vid, 'name', v.name, 'description', v.description) order by v.site_id nulls last, v.group_id nulls last, v.vid, v.id) as list
      from dcim_interface_tagged_vlans tv join ipam_vlan v on v.id = tv.vlan_id where tv.interface_id in (select id from page) group by tv.interface_id),
  addresses as (select a.assigned_object_id as id, count(*)::int as n from ipam_ipaddress a where a.assigned_object_id in (select id from page)
        and a.assigned_object_type_id = (select id from core_objecttype where app_label = 'dcim' and model = 'interface') group by a.assigned_object_id),
  fhrp as (select f.interface_id as id, count(*)::int as n from ipam_fhrpgroupassignment f where f.interface_id in (select id from page)
        and f.interface_type_id = (select id from core_objecttype where app_label = 'dcim' and model = 'interface') group by f.interface_id),
  tags as (${tagsOfPage('interface')}),
  paths as (${pathsFrom(`array(select ${origin('page')} from page)`)}),
  ends as (select e.owner, e.kind, e.pos, ${NODE.columns} from (
        select p.id as owner, 'peer' as kind, t.id::bigint as pos, ot.app_label || '.' || ot.model as model, t.termination_id as node_id
        from page p join dcim_cabletermination t on t.cable_id = p.cable_id and t.cable_end <> p.cable_end join core_objecttype ot on ot.id = t.termination_type_id
        union all
        select p.id, 'endpoint', h.n, split_part(h.node, ':', 1), split_part(h.node, ':', 2)::int
        from page p join paths pa on pa.origin = ${origin('p')} and pa.is_complete cross join lateral jsonb_array_elements_text(pa.path -> -1) with ordinality h(node, n)
      ) e ${NODE.joins}),
  ends_of as (select owner as id, json_agg(ends order by kind desc, pos) as list from ends group by owner)
  select p.*, coalesce(addresses.n, 0) as count_ipaddresses, coalesce(fhrp.n, 0) as count_fhrp_groups, ${deviceColumns('d', 'd', 'd.device_type_id')},
    mo.id as mo_id, mo.description as mo_description, mo.module_bay_id as mo_bay_id, mb.name as mo_bay_name, mo.module_type_id as mo_type_id,
    mt.model as mo_type_model, mt.description as mo_type_description, mf.id as mo_mf_id, mf.name as mo_mf_name, mf.slug as mo_mf_slug,
    mf.description as mo_mf_description, ${deviceColumns('md', 'md', 'md.device_type_id')},
    ${['pi', 'bi', 'li'].map((a) => `${a}.name as ${a}_name, ${a}.label as ${a}_label, ${a}.mark_connected as ${a}_mark_connected,
      ${a}c.label as ${a}c_label, ${a}c.description as ${a}c_description, ${a}.cable_id as ${a}_cable_id`).join(', ')},
    ${deviceColumns('pd', 'pd', 'pd.device_type_id')}, ${deviceColumns('bd', 'bd', 'bd.device_type_id')}, ${deviceColumns('ld', 'ld', 'ld.device_type_id')},
    c.label as c_label, c.description as c_description, pa.origin is not null as has_path, pa.is_complete as path_complete, pa.is_active as path_active,
    coalesce(ends_of.list, '[]') as ends,
    pm.mac_address::text as pm_mac, pm.description as pm_description,
    uv.vid as uv_vid, uv.name as uv_name, uv.description as uv_description, sv.vid as sv_vid, sv.name as sv_name, sv.description as sv_description,
    vp.name as vp_name, vp.description as vp_description, vr.name as vr_name, vr.rd as vr_rd, vr.description as vr_description,
    coalesce(vdcs.list, '[]') as vdcs, coalesce(bridged.list, '[]') as bridged, coalesce(macs.list, '[]') as macs, coalesce(tagged.list, '[]') as tagged,
    coalesce(tags.tags, '[]') as tags
  from page p join dcim_device d on d.id = p.device_id
  left join dcim_module mo on mo.id = p.module_id left join dcim_modulebay mb on mb.id = mo.module_bay_id
  left join dcim_moduletype mt on mt.id = mo.module_type_id left join dcim_manufacturer mf on mf.id = mt.manufacturer_id
  left join dcim_device md on md.id = mo.device_id
  left join dcim_interface pi on pi.id = p.parent_id left join dcim_device pd on pd.id = pi.device_id
  left join dcim_interface bi on bi.id = p.bridge_id left join dcim_device bd on bd.id = bi.device_id
  left join dcim_interface li on li.id = p.lag_id left join dcim_device ld on ld.id = li.device_id
  left join dcim_cable pic on pic.id = pi.cable_id left join dcim_cable bic on bic.id = bi.cable_id left join dcim_cable lic on lic.id = li.cable_id
  left join dcim_cable c on c.id = p.cable_id left join paths pa on pa.origin = ${origin('p')} left join ends_of on ends_of.id = p.id
  left join dcim_macaddress pm on pm.id = p.primary_mac_address_id
  left join ipam_vlan uv on uv.id = p.untagged_vlan_id left join ipam_vlan sv on sv.id = p.qinq_svlan_id
  left join ipam_vlantranslationpolicy vp on vp.id = p.vlan_translation_policy_id left join ipam_vrf vr on vr.id = p.vrf_id
  left join vdcs on vdcs.id = p.id left join bridged on bridged.id = p.id left join macs on macs.id = p.id left join tagged on tagged.id = p.id
  left join addresses on addresses.id = p.id left join fhrp on fhrp.id = p.id left join tags on tags.id = p.id
  order by d.name_natural, d.id, p.name_natural, p.id`;

const interfaceBriefPage = (where: string) => `select i.id, i.name, i.label, i.description, i.cable_id, i.mark_connected, c.label as c_label, c.description as c_description,
    ${deviceColumns('d', 'd', 'd.device_type_id')}
  from dcim_interface i join dcim_device d on d.id = i.device_id left join dcim_cable c on c.id = i.cable_id ${where}
  order by d.name_natural, d.id, i.name_natural, i.id limit ?`;

/**
 * The hand-written equivalent of GET /api/dcim/interfaces/?limit=N (full or brief; `cabled`: ?cabled=true): one
 * count, one statement for the page with every related object, and the custom field definitions; JSON built by hand.
 */
export function interfaceList(db: Db, brief: boolean, cabled = false): Handler {
  const where = cabled ? 'where i.cable_id is not null' : '';
  return async (url) => {
    const base = url.origin;
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const [{ count }] = (await db('dcim_interface').modify((q) => void (cabled && q.whereNotNull('cable_id'))).count({ count: '*' })) as { count: string }[];
    const occupied = (cable: unknown, marked: unknown) => (cable !== null && cable !== undefined) || Boolean(marked);
    if (brief) {
      const { rows } = (await db.raw(interfaceBriefPage(where), [limit])) as { rows: Row[] };
      const results = rows.map((r) => ({
        id: r.id, url: links(base, 'dcim/interfaces', r.id).url, display: labelled(r.name, r.label), device: interfaceDevice(base, r, 'd'), name: r.name, description: r.description,
        cable: cableBrief(base, r.cable_id, r.c_label, r.c_description), _occupied: occupied(r.cable_id, r.mark_connected),
      }));
      return { count: Number(count), next: null, previous: null, results };
    }
    const [custom, { rows }] = await Promise.all([emptyCustomFields(db, 'dcim.interface'), db.raw(interfacePage(where), [limit]) as Promise<{ rows: Row[] }>]);
    const vlan = (id: unknown, vid: unknown, name: unknown, description: unknown) =>
      id === null ? null : { id, url: links(base, 'ipam/vlans', id).url, display: `${name} (${vid})`, vid, name, description };
    const nestedInterface = (r: Row, p: 'pi' | 'bi' | 'li', d: string, id: unknown) =>
      id === null ? null : {
        id, ...links(base, 'dcim/interfaces', id), display: labelled(r[`${p}_name`], r[`${p}_label`]), device: interfaceDevice(base, r, d), name: r[`${p}_name`],
        cable: cableBrief(base, r[`${p}_cable_id`], r[`${p}c_label`], r[`${p}c_description`]), _occupied: occupied(r[`${p}_cable_id`], r[`${p}_mark_connected`]),
      };
    const results = rows.map((r) => {
      const ends = r.ends as Row[];
      const peers = ends.filter((e) => e.kind === 'peer');
      const endpoints = ends.filter((e) => e.kind === 'endpoint');
      return {
        id: r.id, ...links(base, 'dcim/interfaces', r.id), display: labelled(r.name, r.label),
        device: interfaceDevice(base, r, 'd'),
        module: r.mo_id === null ? null : {
          id: r.mo_id, url: links(base, 'dcim/modules', r.mo_id).url, display: `${r.mo_bay_name}: ${r.mo_type_model} (${r.mo_id})`,
          device: deviceBrief(base, r, 'md'),
          module_bay: { id: r.mo_bay_id, ...links(base, 'dcim/module-bays', r.mo_bay_id), display: r.mo_bay_name, name: r.mo_bay_name },
          module_type: {
            id: r.mo_type_id, url: links(base, 'dcim/module-types', r.mo_type_id).url, display: r.mo_type_model, profile: null,
            manufacturer: { id: r.mo_mf_id, url: links(base, 'dcim/manufacturers', r.mo_mf_id).url, display: r.mo_mf_name, name: r.mo_mf_name, slug: r.mo_mf_slug, description: r.mo_mf_description },
            model: r.mo_type_model, description: r.mo_type_description,
          },
          description: r.mo_description,
        },
        name: r.name, label: r.label,
        vdcs: (r.vdcs as Row[]).map((c) => ({
          id: c.id, url: links(base, 'dcim/virtual-device-contexts', c.id).url, display: c.name, name: c.name, identifier: c.identifier,
          device: { id: c.device_id, url: links(base, 'dcim/devices', c.device_id).url, display: c.device_name, name: c.device_name, description: c.device_description },
          description: c.description,
        })),
        type: choice(InterfaceType, r.type), enabled: r.enabled,
        parent: nestedInterface(r, 'pi', 'pd', r.parent_id),
        bridge: nestedInterface(r, 'bi', 'bd', r.bridge_id),
        bridge_interfaces: (r.bridged as Row[]).map((b) => ({
          id: b.id, ...links(base, 'dcim/interfaces', b.id), display: labelled(b.name, b.label),
          device: {
            id: b.device_id, url: links(base, 'dcim/devices', b.device_id).url, display: b.device_name, name: b.device_name, description: b.device_description, display_name: b.device_name,
          },
          name: b.name, cable: cableBrief(base, b.cable_id, b.cable_label, b.cable_description), _occupied: occupied(b.cable_id, b.mark_connected),
        })),
        lag: nestedInterface(r, 'li', 'ld', r.lag_id),
        mtu: r.mtu, mac_address: r.pm_mac === null ? null : String(r.pm_mac).toUpperCase(),
        primary_mac_address: r.primary_mac_address_id === null ? null : {
          id: r.primary_mac_address_id, url: links(base, 'dcim/mac-addresses', r.primary_mac_address_id).url, display: String(r.pm_mac).toUpperCase(),
          mac_address: String(r.pm_mac).toUpperCase(), description: r.pm_description,
        },
        mac_addresses: (r.macs as Row[]).map((m) => ({ id: m.id, url: links(base, 'dcim/mac-addresses', m.id).url, display: String(m.mac).toUpperCase(), mac_address: String(m.mac).toUpperCase(), description: m.description })),
        speed: r.speed, duplex: choice(InterfaceDuplex, r.duplex), wwn: r.wwn, mgmt_only: r.mgmt_only, description: r.description,
        mode: choice(InterfaceMode, r.mode), rf_role: choice(WirelessRole, r.rf_role), rf_channel: choice(WirelessChannel, r.rf_channel),
        poe_mode: choice(InterfacePoEMode, r.poe_mode), poe_type: choice(InterfacePoEType, r.poe_type),
        rf_channel_frequency: num(r.rf_channel_frequency), rf_channel_width: num(r.rf_channel_width), tx_power: r.tx_power, mark_connected: r.mark_connected,
        // What cabling adds: the cable, the objects at its other end and where the path from here leads.
        cable: cableBrief(base, r.cable_id, r.c_label, r.c_description), cable_end: r.cable_end,
        link_peers: peers.map((e) => nodeBrief(base, e)), link_peers_type: peers[0]?.n_model ?? null,
        connected_endpoints: endpoints.length ? endpoints.map((e) => nodeBrief(base, e)) : null, connected_endpoints_type: endpoints[0]?.n_model ?? null,
        connected_endpoints_reachable: r.has_path ? r.path_complete && r.path_active : null,
        _occupied: occupied(r.cable_id, r.mark_connected),
        tags: tagList(base, r.tags as Row[]), custom_fields: custom,
        // What ipam adds to interfaces.
        untagged_vlan: vlan(r.untagged_vlan_id, r.uv_vid, r.uv_name, r.uv_description),
        tagged_vlans: (r.tagged as Row[]).map((v) => vlan(v.id, v.vid, v.name, v.description)),
        qinq_svlan: vlan(r.qinq_svlan_id, r.sv_vid, r.sv_name, r.sv_description),
        vlan_translation_policy: r.vlan_translation_policy_id === null ? null : {
          id: r.vlan_translation_policy_id, url: links(base, 'ipam/vlan-translation-policies', r.vlan_translation_policy_id).url, display: r.vp_name, name: r.vp_name, description: r.vp_description,
        },
        vrf: r.vrf_id === null ? null : {
          id: r.vrf_id, url: links(base, 'ipam/vrfs', r.vrf_id).url, display: r.vr_rd ? `${r.vr_name} (${r.vr_rd})` : r.vr_name, name: r.vr_name, rd: r.vr_rd, description: r.vr_description,
        },
        count_ipaddresses: r.count_ipaddresses, count_fhrp_groups: r.count_fhrp_groups,
        created: formatDateTime(r.created as string), last_updated: formatDateTime(r.last_updated as string),
      };
    });
    return { count: Number(count), next: null, previous: null, results };
  };
}

/** `_depth` of every node of a tree table, for the nested trees a device shows. */
const depthOf = (table: string) => `(with recursive up(id, parent_id, depth) as (select id, parent_id, 0 from ${table} where parent_id is null
    union all select c.id, c.parent_id, up.depth + 1 from ${table} c join up on c.parent_id = up.id) select id, depth from up)`;

const COUNTED: [string, string][] = [
  ['console_port_count', 'dcim_consoleport'], ['console_server_port_count', 'dcim_consoleserverport'], ['power_port_count', 'dcim_powerport'],
  ['power_outlet_count', 'dcim_poweroutlet'], ['interface_count', 'dcim_interface'], ['rear_port_count', 'dcim_rearport'],
  ['front_port_count', 'dcim_frontport'], ['module_bay_count', 'dcim_modulebay'], ['device_bay_count', 'dcim_devicebay'],
  ['inventory_item_count', 'dcim_inventoryitem'],
];

/** The devices of the page in one statement, with their related objects, depths and component counts. */
/** `exists` an assignment of context `cc` in join table `table` whose `column` is among `values` (SQL), or none at all. */
const assigned = (table: string, column: string, values: string) =>
  `(not exists (select 1 from ${table} x where x.configcontext_id = cc.id) or exists (select 1 from ${table} x where x.configcontext_id = cc.id and x.${column} in (${values})))`;
/** The node `id` (SQL) of tree `table` and its ancestors. */
const upFrom = (table: string, id: string) =>
  `with recursive up(id) as (select ${id} union select t.parent_id from ${table} t join up on t.id = up.id where t.parent_id is not null) select id from up where id is not null`;

/** The data of the config contexts applying to each device of the page, lowest weight first (NetBox 4.4's rules). */
export const CONTEXTS = `select p.id, jsonb_agg(cc.data order by cc.weight, cc.name) as datas
  from page p left join dcim_site s on s.id = p.site_id left join tenancy_tenant tn on tn.id = p.tenant_id
  left join virtualization_cluster cl on cl.id = p.cluster_id
  join extras_configcontext cc on cc.is_active
  where ${assigned('extras_configcontext_regions', 'region_id', upFrom('dcim_region', 's.region_id'))}
    and ${assigned('extras_configcontext_site_groups', 'sitegroup_id', upFrom('dcim_sitegroup', 's.group_id'))}
    and ${assigned('extras_configcontext_sites', 'site_id', 'p.site_id')}
    and ${assigned('extras_configcontext_locations', 'location_id', upFrom('dcim_location', 'p.location_id'))}
    and ${assigned('extras_configcontext_device_types', 'devicetype_id', 'p.device_type_id')}
    and ${assigned('extras_configcontext_roles', 'devicerole_id', upFrom('dcim_devicerole', 'p.role_id'))}
    and ${assigned('extras_configcontext_platforms', 'platform_id', 'p.platform_id')}
    and ${assigned('extras_configcontext_cluster_types', 'clustertype_id', 'cl.type_id')}
    and ${assigned('extras_configcontext_cluster_groups', 'clustergroup_id', 'cl.group_id')}
    and ${assigned('extras_configcontext_clusters', 'cluster_id', 'p.cluster_id')}
    and ${assigned('extras_configcontext_tenant_groups', 'tenantgroup_id', 'tn.group_id')}
    and ${assigned('extras_configcontext_tenants', 'tenant_id', 'p.tenant_id')}
    and ${assigned('extras_configcontext_tags', 'tag_id', `select ti.tag_id from extras_taggeditem ti join core_objecttype ot on ot.id = ti.object_type_id
      where ot.app_label = 'dcim' and ot.model = 'device' and ti.object_id = p.id`)}
  group by p.id`;

export type Data = Record<string, unknown>;
export const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
/** NetBox's deepmerge. */
export function deepmerge(original: Data, update: Data): Data {
  const merged: Data = { ...original };
  for (const [key, value] of Object.entries(update)) {
    merged[key] = isObject(original[key]) && isObject(value) && Object.keys(value).length ? deepmerge(original[key] as Data, value) : value;
  }
  return merged;
}

const DEVICE_PAGE = `with page as (select * from dcim_device order by name_natural, id limit ?),
    contexts as (${CONTEXTS}),
    role_depth as ${depthOf('dcim_devicerole')}, platform_depth as ${depthOf('dcim_platform')}, location_depth as ${depthOf('dcim_location')},
    ${COUNTED.map(([name, table]) => `${name} as (select device_id as id, count(*)::int as n from ${table} where device_id in (select id from page) group by device_id)`).join(', ')},
    tags as (${tagsOfPage('device')})
  select p.*,
    t.model as t_model, t.slug as t_slug, t.description as t_description, m.id as m_id, m.name as m_name, m.slug as m_slug, m.description as m_description,
    r.name as r_name, r.slug as r_slug, r.description as r_description, rd.depth as r_depth,
    pf.name as pf_name, pf.slug as pf_slug, pf.description as pf_description, pfd.depth as pf_depth,
    s.name as s_name, s.slug as s_slug, s.description as s_description,
    l.name as l_name, l.slug as l_slug, l.description as l_description, ld.depth as l_depth,
    rk.name as rk_name, rk.facility_id as rk_facility, rk.description as rk_description,
    tn.name as tn_name, tn.slug as tn_slug, tn.description as tn_description,
    vc.name as vc_name, vc.description as vc_description, vc.master_id as vc_master, vm.name as vc_master_name,
    bay.id as bay_id, bay.name as bay_name, ${deviceColumns('bp', 'bp', 'bp.device_type_id')},
    ${COUNTED.map(([name]) => `coalesce(${name}.n, 0) as ${name}`).join(', ')},
    ip4.address::text as ip4_address, ip4.description as ip4_description, ip6.address::text as ip6_address, ip6.description as ip6_description,
    oob.address::text as oob_address, oob.description as oob_description, cl.name as cl_name, cl.description as cl_description,
    coalesce(tags.tags, '[]') as tags, ct.name as ct_name, ct.description as ct_description, coalesce(contexts.datas, '[]') as datas
  from page p join dcim_devicetype t on t.id = p.device_type_id join dcim_manufacturer m on m.id = t.manufacturer_id
  join dcim_devicerole r on r.id = p.role_id left join role_depth rd on rd.id = r.id
  left join dcim_platform pf on pf.id = p.platform_id left join platform_depth pfd on pfd.id = pf.id
  join dcim_site s on s.id = p.site_id
  left join dcim_location l on l.id = p.location_id left join location_depth ld on ld.id = l.id
  left join dcim_rack rk on rk.id = p.rack_id left join tenancy_tenant tn on tn.id = p.tenant_id
  left join dcim_virtualchassis vc on vc.id = p.virtual_chassis_id left join dcim_device vm on vm.id = vc.master_id
  left join dcim_devicebay bay on bay.installed_device_id = p.id left join dcim_device bp on bp.id = bay.device_id
  left join ipam_ipaddress ip4 on ip4.id = p.primary_ip4_id left join ipam_ipaddress ip6 on ip6.id = p.primary_ip6_id
  left join ipam_ipaddress oob on oob.id = p.oob_ip_id left join virtualization_cluster cl on cl.id = p.cluster_id
  ${COUNTED.map(([name]) => `left join ${name} on ${name}.id = p.id`).join(' ')} left join tags on tags.id = p.id
  left join extras_configtemplate ct on ct.id = p.config_template_id left join contexts on contexts.id = p.id
  order by p.name_natural, p.id`;

/**
 * A brief list by hand: the count of `table`, one statement for the page (`page`, taking the limit) and each row's
 * brief form (`brief`, given the server's origin).
 */
export function briefList(db: Db, table: string, page: string, brief: (base: string, row: Row) => unknown): Handler {
  return async (url) => {
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const [{ count }] = (await db(table).count({ count: '*' })) as { count: string }[];
    const { rows } = (await db.raw(page, [limit])) as { rows: Row[] };
    return { count: Number(count), next: null, previous: null, results: rows.map((r) => brief(url.origin, r)) };
  };
}

/** The hand-written equivalent of GET /api/dcim/devices/?limit=N&brief=1. */
export const deviceBriefList = (db: Db): Handler =>
  briefList(db, 'dcim_device', `select ${deviceColumns('d', 'd', 'd.device_type_id')} from dcim_device d order by d.name_natural, d.id limit ?`, (base, r) => deviceBrief(base, r, 'd'));

/** The hand-written equivalent of GET /api/dcim/devices/?limit=N: one count and one statement; JSON built by hand. */
export function deviceList(db: Db): Handler {
  return async (url) => {
    const base = url.origin;
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const [{ count }] = (await db('dcim_device').count({ count: '*' })) as { count: string }[];
    const [custom, { rows }] = await Promise.all([emptyCustomFields(db, 'dcim.device'), db.raw(DEVICE_PAGE, [limit]) as Promise<{ rows: Row[] }>]);
    const brief = (path: string, id: unknown, fields: Row) => (id === null ? null : { id, url: links(base, path, id).url, ...fields });
    // An address as devices nest it (PostgreSQL leaves a full mask out; the API shows it).
    const address = (id: unknown, text: unknown, description: unknown) => {
      if (id === null) return null;
      const shown = String(text).includes('/') ? String(text) : `${text}/${String(text).includes(':') ? 128 : 32}`;
      return { id, url: links(base, 'ipam/ip-addresses', id).url, display: shown, family: { value: shown.includes(':') ? 6 : 4, label: shown.includes(':') ? 'IPv6' : 'IPv4' }, address: shown, description };
    };
    const results = rows.map((r) => {
      const name = r.name as string | null;
      const display = name ? (r.asset_tag ? `${name} (${r.asset_tag})` : name) : `${r.m_name} ${r.t_model} (${r.asset_tag ?? r.id})`;
      return {
        id: r.id, ...links(base, 'dcim/devices', r.id),
        display,
        name,
        display_name: display,
        device_type: brief('dcim/device-types', r.device_type_id, {
          display: r.t_model,
          manufacturer: brief('dcim/manufacturers', r.m_id, { display: r.m_name, name: r.m_name, slug: r.m_slug, description: r.m_description }),
          model: r.t_model, slug: r.t_slug, description: r.t_description,
        }),
        role: brief('dcim/device-roles', r.role_id, { display: r.r_name, name: r.r_name, slug: r.r_slug, description: r.r_description, device_count: 0, virtualmachine_count: 0, _depth: r.r_depth }),
        tenant: brief('tenancy/tenants', r.tenant_id, { display: r.tn_name, name: r.tn_name, slug: r.tn_slug, description: r.tn_description }),
        platform: brief('dcim/platforms', r.platform_id, {
          display: r.pf_name, name: r.pf_name, slug: r.pf_slug, description: r.pf_description, device_count: 0, virtualmachine_count: 0, _depth: r.pf_depth,
        }),
        serial: r.serial, asset_tag: r.asset_tag,
        site: brief('dcim/sites', r.site_id, { display: r.s_name, name: r.s_name, description: r.s_description, slug: r.s_slug }),
        location: brief('dcim/locations', r.location_id, { display: r.l_name, name: r.l_name, slug: r.l_slug, description: r.l_description, rack_count: 0, _depth: r.l_depth }),
        rack: brief('dcim/racks', r.rack_id, { display: r.rk_facility ? `${r.rk_name} (${r.rk_facility})` : r.rk_name, name: r.rk_name, description: r.rk_description }),
        position: num(r.position), face: choice(DeviceFace, r.face), latitude: num(r.latitude), longitude: num(r.longitude),
        parent_device: r.bay_id === null ? null : {
          ...deviceBrief(base, r, 'bp'), display_url: links(base, 'dcim/devices', r.bp_id).display_url,
          device_bay: { id: r.bay_id, ...links(base, 'dcim/device-bays', r.bay_id), display: r.bay_name, device: deviceBrief(base, r, 'bp'), name: r.bay_name },
        },
        status: choice(DeviceStatus, r.status), airflow: choice(DeviceAirflow, r.airflow),
        virtual_chassis: brief('dcim/virtual-chassis', r.virtual_chassis_id, {
          display: r.vc_name, name: r.vc_name,
          master: r.vc_master === null ? null : { id: r.vc_master, ...links(base, 'dcim/devices', r.vc_master), display: r.vc_master_name, name: r.vc_master_name },
          description: r.vc_description,
        }),
        vc_position: r.vc_position, vc_priority: r.vc_priority, description: r.description, comments: r.comments, local_context_data: r.local_context_data,
        // What extras adds: the template, and the contexts merged by weight, then the device's own data.
        config_template: brief('extras/config-templates', r.config_template_id, { display: r.ct_name, name: r.ct_name, description: r.ct_description }),
        config_context: [...(r.datas as Data[]), ...(isObject(r.local_context_data) ? [r.local_context_data] : [])].reduce(deepmerge, {}),
        tags: tagList(base, r.tags as Row[]), custom_fields: custom,
        // What ipam adds to devices.
        primary_ip: r.primary_ip6_id !== null ? address(r.primary_ip6_id, r.ip6_address, r.ip6_description) : address(r.primary_ip4_id, r.ip4_address, r.ip4_description),
        primary_ip4: address(r.primary_ip4_id, r.ip4_address, r.ip4_description),
        primary_ip6: address(r.primary_ip6_id, r.ip6_address, r.ip6_description),
        oob_ip: address(r.oob_ip_id, r.oob_address, r.oob_description),
        // What virtualization adds.
        cluster: brief('virtualization/clusters', r.cluster_id, { display: r.cl_name, name: r.cl_name, description: r.cl_description }),
        created: formatDateTime(r.created as string), last_updated: formatDateTime(r.last_updated as string),
        ...Object.fromEntries(COUNTED.map(([name]) => [name, r[name]])),
      };
    });
    return { count: Number(count), next: null, previous: null, results };
  };
}
