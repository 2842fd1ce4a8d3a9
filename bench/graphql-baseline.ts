import type { Db } from '../kernel/base/types.js';

/**
 * The GraphQL scenarios of the bench: each query, the hand-written SQL that answers the same JSON in one statement,
 * and the REST requests a client makes for the same data (pages of 1000, filtered by the objects of the level
 * above), assembled into the same JSON.
 */

type Json = Record<string, unknown>;
type Get = (path: string) => Promise<Json>;

export const DEVICE_INTERFACES = '{ device_list { id name interfaces { id name ip_addresses { id address } } } }';
export const VLAN_PREFIXES = '{ vlan_list { id vid name prefixes { id prefix } } }';

/** `device_list { interfaces { ip_addresses } }` in one statement: the first 1000 devices, in their orderings. */
export function deviceInterfacesSql(db: Db, interfaceType: number) {
  return async (): Promise<Json> => {
    const { rows } = (await db.raw(
      `select coalesce(json_agg(json_build_object('id', d.id::text, 'name', d.name, 'interfaces', (
         select coalesce(json_agg(json_build_object('id', i.id::text, 'name', i.name, 'ip_addresses', (
           select coalesce(json_agg(json_build_object('id', a.id::text, 'address', host(a.address) || '/' || masklen(a.address)) order by a.address, a.id), '[]'::json)
           from ipam_ipaddress a where a.assigned_object_type_id = ? and a.assigned_object_id = i.id)) order by i.name_natural, i.id), '[]'::json)
         from dcim_interface i where i.device_id = d.id)) order by d.name_natural, d.id), '[]'::json) as list
       from (select * from dcim_device order by name_natural, id limit 1000) d`,
      [interfaceType],
    )) as { rows: { list: unknown[] }[] };
    return { data: { device_list: rows[0].list } };
  };
}

/** `vlan_list { prefixes }` in one statement, in the VLANs' and prefixes' orderings. */
export function vlanPrefixesSql(db: Db) {
  return async (): Promise<Json> => {
    const { rows } = (await db.raw(
      `select coalesce(json_agg(json_build_object('id', v.id::text, 'vid', v.vid, 'name', v.name, 'prefixes', (
         select coalesce(json_agg(json_build_object('id', p.id::text, 'prefix', p.prefix::text) order by p.vrf_id asc nulls first, p.prefix, p.id), '[]'::json)
         from ipam_prefix p where p.vlan_id = v.id)) order by v.s_name, v.g_name, v.g_id, v.vid, v.id), '[]'::json) as list
       from (select v.*, s.name as s_name, g.name as g_name, g.id as g_id from ipam_vlan v left join dcim_site s on s.id = v.site_id
             left join ipam_vlangroup g on g.id = v.group_id order by s.name, g.name, g.id, v.vid, v.id limit 1000) v`,
    )) as { rows: { list: unknown[] }[] };
    return { data: { vlan_list: rows[0].list } };
  };
}

/** Every page of a REST list, following `next`. */
async function all(get: Get, path: string): Promise<Json[]> {
  const rows: Json[] = [];
  for (let next: string | null = path; next; ) {
    const page = (await get(next)) as { results: Json[]; next: string | null };
    rows.push(...page.results);
    next = page.next ? new URL(page.next).pathname + new URL(page.next).search : null;
  }
  return rows;
}

/** The related rows of `ids` through a REST filter, `chunk` ids a request (URLs stay short), every page of each. */
async function byIds(get: Get, path: string, filter: string, ids: number[], chunk = 200): Promise<Json[]> {
  const rows: Json[] = [];
  for (let i = 0; i < ids.length; i += chunk) {
    const query = ids.slice(i, i + chunk).map((id) => `${filter}=${id}`).join('&');
    rows.push(...(await all(get, `${path}${path.includes('?') ? '&' : '?'}${query}`)));
  }
  return rows;
}

const grouped = (rows: Json[], key: (row: Json) => number) => {
  const map = new Map<number, Json[]>();
  for (const row of rows) map.set(key(row), [...(map.get(key(row)) ?? []), row]);
  return map;
};

/** `device_list { interfaces { ip_addresses } }` through REST: devices, their interfaces, their addresses. */
export async function deviceInterfacesRest(get: Get): Promise<Json> {
  const devices = (await get('/api/dcim/devices/?limit=1000&fields=id,name')).results as Json[];
  const interfaces = await byIds(get, '/api/dcim/interfaces/?limit=1000&fields=id,name,device', 'device_id', devices.map((d) => d.id as number));
  const addresses = await byIds(get, '/api/ipam/ip-addresses/?limit=1000&fields=id,address,assigned_object_id', 'interface_id', interfaces.map((i) => i.id as number));
  const ofInterface = grouped(addresses, (a) => a.assigned_object_id as number);
  const ofDevice = grouped(interfaces, (i) => (i.device as Json).id as number);
  return {
    data: {
      device_list: devices.map((d) => ({
        id: String(d.id), name: d.name,
        interfaces: (ofDevice.get(d.id as number) ?? []).map((i) => ({
          id: String(i.id), name: i.name, ip_addresses: (ofInterface.get(i.id as number) ?? []).map((a) => ({ id: String(a.id), address: a.address })),
        })),
      })),
    },
  };
}

/** `vlan_list { prefixes }` through REST: the VLANs, then the prefixes of each chunk of them. */
export async function vlanPrefixesRest(get: Get): Promise<Json> {
  const vlans = (await get('/api/ipam/vlans/?limit=1000&fields=id,vid,name')).results as Json[];
  const prefixes = await byIds(get, '/api/ipam/prefixes/?limit=1000&fields=id,prefix,vlan', 'vlan_id', vlans.map((v) => v.id as number));
  const ofVlan = grouped(prefixes, (p) => (p.vlan as Json).id as number);
  return {
    data: {
      vlan_list: vlans.map((v) => ({
        id: String(v.id), vid: v.vid, name: v.name, prefixes: (ofVlan.get(v.id as number) ?? []).map((p) => ({ id: String(p.id), prefix: p.prefix })),
      })),
    },
  };
}
