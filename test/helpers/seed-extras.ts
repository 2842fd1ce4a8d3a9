import type { Db } from '../../kernel/base/types.js';

/**
 * Config templates on every device, role, platform and virtual machine, and config contexts that apply to them:
 * global, by region (the three roots: every site under them), by role, by tag; every fifth device has local data.
 * Expects seedDcim's regions, roles and devices (and seedVirtualization's VMs, when there are any).
 */
export async function seedConfiguration(db: Db, n: number): Promise<void> {
  await db.raw(`insert into extras_configtemplate (name, description, environment_params, template_code, mime_type, file_name, file_extension, as_attachment, created, last_updated)
    select 'Template ' || i, '', '{}', 'hostname {{ device.name }}', '', '', '', true, now(), now() from generate_series(1, ?) i`, [n]);
  for (const table of ['dcim_device', 'dcim_devicerole', 'dcim_platform', 'virtualization_virtualmachine']) {
    await db.raw(`update ${table} set config_template_id = (select min(id) from extras_configtemplate) + (id % ?)`, [n]);
  }
  await db.raw(`update dcim_device set local_context_data = jsonb_build_object('asset', id) where id % 5 = 0`);
  const [tag] = await db('extras_tag').insert({ name: 'Seeded', slug: 'seeded', color: '9e9e9e', description: '', weight: 1000, object_types: [], created: db.fn.now(), last_updated: db.fn.now() }).returning('id');
  const context = async (name: string, weight: number, data: object, assignment?: { table: string; column: string; id: number }) => {
    const [row] = await db('extras_configcontext').insert({ name, weight, description: '', is_active: true, data: JSON.stringify(data), created: db.fn.now(), last_updated: db.fn.now() }).returning('id');
    if (assignment) await db(assignment.table).insert({ configcontext_id: row.id, [assignment.column]: assignment.id });
  };
  await context('global', 100, { ntp: ['10.0.0.1', '10.0.0.2'], syslog: { host: '10.0.0.5', port: 514 } });
  for (const region of [1, 2, 3]) {
    await context(`region ${region}`, 200, { syslog: { host: `10.${region}.0.5` }, dns: [`10.${region}.0.53`] }, { table: 'extras_configcontext_regions', column: 'region_id', id: region });
  }
  await context('role 1', 300, { role: 'one', snmp: { community: 'public' } }, { table: 'extras_configcontext_roles', column: 'devicerole_id', id: 1 });
  await context('tagged', 400, { tagged: true }, { table: 'extras_configcontext_tags', column: 'tag_id', id: tag.id as number });
}
