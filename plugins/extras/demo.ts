import type { Db, DemoStep } from 'patchbay';

async function inserted(db: Db, sql: string, bindings: readonly unknown[] = []): Promise<number> {
  const result = (await db.raw(sql, bindings as never[])) as { rowCount: number | null };
  return result.rowCount ?? 0;
}

/** The leaf switches' configuration (trim_blocks): about 300 lines for a 57-interface leaf, from its config context and interfaces. */
export const LEAF_TEMPLATE = `{% set mgmt = device.interfaces.filter(mgmt_only=True).first() %}
! {{ device.name }} ({{ device.site.name }}, {{ device.site.region.name }})
hostname {{ device.name }}
{% for server in ntp_servers %}
ntp server {{ server }}
{% endfor %}
{% for server in dns_servers %}
ip name-server vrf MGMT {{ server }}
{% endfor %}
logging host {{ syslog.host }} {{ syslog.port }}
snmp-server community {{ snmp.community }} ro
!
{% for iface in device.interfaces.all() if not iface.mgmt_only %}
interface {{ iface.name }}
   description {{ iface.description or "unused" }}
   mtu {{ iface.mtu or 9214 }}
   {{ "no shutdown" if iface.enabled else "shutdown" }}
!
{% endfor %}
interface {{ mgmt.name }}
   vrf MGMT
   ip address {{ device.primary_ip4.address if device.primary_ip4 else "dhcp" }}
!
router bgp {{ bgp.asn }}
   maximum-paths {{ bgp.maximum_paths }}
{% for peer in bgp.peers %}
   neighbor {{ peer }} peer group SPINES
{% endfor %}
end
`;

/**
 * The extras demo data, on dcim's: a `managed` tag on the core routers and leaf switches, config contexts assigned
 * globally, by region, by role and by tag, and a config template for the leaf switches. Reruns add nothing.
 */
export function extrasDemoSteps(): DemoStep[] {
  return [
    {
      label: 'Tags, config contexts and config templates',
      run: async (db) => {
        let added = await inserted(db, `insert into extras_tag (name, slug, color, description, weight, object_types, created, last_updated)
          values ('Managed', 'managed', '2196f3', 'Configured by automation', 1000, '{}', now(), now()) on conflict do nothing`);
        added += await inserted(db, `insert into extras_taggeditem (tag_id, object_type_id, object_id)
          select t.id, ot.id, d.id from extras_tag t cross join core_objecttype ot cross join dcim_device d join dcim_devicerole r on r.id = d.role_id
          where t.slug = 'managed' and ot.app_label = 'dcim' and ot.model = 'device' and r.name in ('Core router', 'Leaf switch')
            and not exists (select 1 from extras_taggeditem x where x.tag_id = t.id and x.object_type_id = ot.id and x.object_id = d.id)`);
        const contexts: [string, number, object, string | null, string | null][] = [
          ['Global', 100, { ntp_servers: ['10.0.0.1', '10.0.0.2'], dns_servers: ['10.0.0.53'], syslog: { host: '10.0.0.5', port: 514 }, snmp: { community: 'public' } }, null, null],
          ['Europe', 200, { ntp_servers: ['10.10.0.1'], syslog: { host: '10.10.0.5' } }, 'region', 'Europe'],
          ['North America', 200, { ntp_servers: ['10.20.0.1'], syslog: { host: '10.20.0.5' } }, 'region', 'North America'],
          ['Asia Pacific', 200, { ntp_servers: ['10.30.0.1'], syslog: { host: '10.30.0.5' } }, 'region', 'Asia Pacific'],
          ['Leaf switches', 300, { bgp: { asn: 65100, maximum_paths: 4, peers: ['10.255.0.1', '10.255.0.2'] } }, 'role', 'Leaf switch'],
          ['Managed devices', 400, { snmp: { community: 'managed-ro', location: 'datacenter' } }, 'tag', 'managed'],
        ];
        for (const [name, weight, data, kind, target] of contexts) {
          added += await inserted(db, `insert into extras_configcontext (name, weight, description, is_active, data, created, last_updated)
            values (?, ?, '', true, ?, now(), now()) on conflict do nothing`, [name, weight, JSON.stringify(data)]);
          if (kind === 'region') {
            await db.raw(`insert into extras_configcontext_regions (configcontext_id, region_id) select c.id, r.id from extras_configcontext c, dcim_region r
              where c.name = ? and r.name = ? and r.parent_id is null on conflict do nothing`, [name, target]);
          } else if (kind === 'role') {
            await db.raw(`insert into extras_configcontext_roles (configcontext_id, devicerole_id) select c.id, r.id from extras_configcontext c, dcim_devicerole r
              where c.name = ? and r.name = ? on conflict do nothing`, [name, target]);
          } else if (kind === 'tag') {
            await db.raw(`insert into extras_configcontext_tags (configcontext_id, tag_id) select c.id, t.id from extras_configcontext c, extras_tag t
              where c.name = ? and t.slug = ? on conflict do nothing`, [name, target]);
          }
        }
        added += await inserted(db, `insert into extras_configtemplate (name, description, environment_params, template_code, mime_type, file_name, file_extension, as_attachment, created, last_updated)
          select 'Arista EOS leaf', 'Leaf switch configuration', '{"trim_blocks": true}', ?, '', '', 'cfg', true, now(), now()
          where not exists (select 1 from extras_configtemplate where name = 'Arista EOS leaf')`, [LEAF_TEMPLATE]);
        await db.raw(`update dcim_devicerole set config_template_id = (select min(id) from extras_configtemplate where name = 'Arista EOS leaf')
          where name = 'Leaf switch' and config_template_id is null`);
        return added;
      },
    },
  ];
}
