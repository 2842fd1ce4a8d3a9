import type { Db } from '../kernel/base/types.js';
import { CONTEXTS, deepmerge, isObject, links, type Data } from './dcim-baseline.js';

type Row = Record<string, unknown>;

/**
 * The hand-written equivalent of POST /api/dcim/devices/<id>/render-config/ for the demo's leaf template
 * (LEAF_TEMPLATE): the device with its site, region, template and config context, then its interfaces (two
 * statements), and the text written by hand in JavaScript.
 */
export function renderLeafBaseline(db: Db, deviceId: number) {
  return async (url: URL) => {
    const { rows: [device] } = (await db.raw(`with page as (select * from dcim_device where id = ?), contexts as (${CONTEXTS})
      select p.name, p.local_context_data, s.name as site, r.name as region, ip.address::text as address, ct.id as ct_id, ct.name as ct_name, ct.description as ct_description,
        coalesce(contexts.datas, '[]') as datas
      from page p join dcim_site s on s.id = p.site_id left join dcim_region r on r.id = s.region_id
      left join ipam_ipaddress ip on ip.id = p.primary_ip4_id join dcim_devicerole ro on ro.id = p.role_id
      join extras_configtemplate ct on ct.id = coalesce(p.config_template_id, ro.config_template_id) left join contexts on true`, [deviceId])) as { rows: Row[] };
    const { rows: interfaces } = (await db.raw(`select name, description, mtu, enabled, mgmt_only from dcim_interface where device_id = ? order by name_natural, id`, [deviceId])) as { rows: Row[] };
    const c = [...(device.datas as Data[]), ...(isObject(device.local_context_data) ? [device.local_context_data] : [])].reduce(deepmerge, {}) as {
      ntp_servers: string[]; dns_servers: string[]; syslog: { host: string; port: number }; snmp: { community: string }; bgp: { asn: number; maximum_paths: number; peers: string[] };
    };
    const mgmt = interfaces.find((i) => i.mgmt_only)!;
    const address = device.address ? (String(device.address).includes('/') ? String(device.address) : `${device.address}/32`) : 'dhcp';
    const lines = [
      `! ${device.name} (${device.site}, ${device.region})`,
      `hostname ${device.name}`,
      ...c.ntp_servers.map((s) => `ntp server ${s}`),
      ...c.dns_servers.map((s) => `ip name-server vrf MGMT ${s}`),
      `logging host ${c.syslog.host} ${c.syslog.port}`,
      `snmp-server community ${c.snmp.community} ro`,
      '!',
      ...interfaces.filter((i) => !i.mgmt_only).flatMap((i) => [
        `interface ${i.name}`, `   description ${i.description || 'unused'}`, `   mtu ${i.mtu ?? 9214}`, `   ${i.enabled ? 'no shutdown' : 'shutdown'}`, '!',
      ]),
      `interface ${mgmt.name}`, '   vrf MGMT', `   ip address ${address}`, '!',
      `router bgp ${c.bgp.asn}`, `   maximum-paths ${c.bgp.maximum_paths}`,
      ...c.bgp.peers.map((p) => `   neighbor ${p} peer group SPINES`),
      'end',
    ];
    return {
      configtemplate: { id: device.ct_id, url: links(url.origin, 'extras/config-templates', device.ct_id).url, display: device.ct_name, name: device.ct_name, description: device.ct_description },
      // Jinja2 drops the template's final newline.
      content: lines.join('\n'),
    };
  };
}
