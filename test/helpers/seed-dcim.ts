import type { Db } from '../../kernel/base/types.js';

/**
 * Fills the dcim tables with `n` rows each, every relation set (trees three levels deep, the roots sorting last),
 * straight in SQL so that large pages are cheap to prepare. Expects seedTenancy's tenants.
 */
export async function seedDcim(db: Db, n: number): Promise<void> {
  const tree = (table: string, label: string, extra = '', values = '') =>
    db.raw(`insert into ${table} (name, slug, parent_id${extra}, created, last_updated)
      select case when i > 3 then '${label} ' else 'Root ' end || i, '${label.toLowerCase()}-' || i, case when i > 3 then (i % 3) + 1 end${values}, now(), now()
      from generate_series(1, ?) i`, [n]);
  await tree('dcim_region', 'Region');
  await tree('dcim_sitegroup', 'Sitegroup');
  await tree('dcim_devicerole', 'Role', ', color', ", 'aa1409'");
  await db.raw(`insert into dcim_manufacturer (name, slug, created, last_updated) select 'Vendor ' || i, 'vendor-' || i, now(), now() from generate_series(1, ?) i`, [n]);
  await tree('dcim_platform', 'Platform', ', manufacturer_id', ', i');
  await db.raw(`insert into dcim_rackrole (name, slug, created, last_updated) select 'Rack role ' || i, 'rack-role-' || i, now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_site (name, slug, status, region_id, group_id, tenant_id, time_zone, latitude, longitude, created, last_updated)
    select 'Site ' || i, 'site-' || i, 'active', i, i, i, 'Europe/Paris', 48.5, 2.25, now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_location (name, slug, site_id, parent_id, status, tenant_id, created, last_updated)
    select 'Location ' || i, 'location-' || i, case when i > 3 then (i % 3) + 1 else i end, case when i > 3 then (i % 3) + 1 end, 'active', i, now(), now()
    from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_racktype (manufacturer_id, model, slug, width, u_height, starting_unit, desc_units, form_factor, created, last_updated)
    select i, 'Rack type ' || i, 'rack-type-' || i, 19, 42, 1, false, '4-post-cabinet', now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_rack (name, facility_id, site_id, location_id, tenant_id, status, role_id, rack_type_id, width, u_height, starting_unit, desc_units, created, last_updated)
    select 'Rack ' || i, 'F-' || i, i, i, i, 'active', i, i, 19, 42, 1, false, now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_rackreservation (rack_id, units, status, tenant_id, user_id, description, created, last_updated)
    select i, array[1, 2], 'active', i, (select min(id) from users_user), 'Reserved ' || i, now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_devicetype (manufacturer_id, default_platform_id, model, slug, u_height, exclude_from_utilization, is_full_depth, subdevice_role, created, last_updated)
    select i, i, 'Type ' || i, 'type-' || i, 1, false, true, 'parent', now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_moduletypeprofile (name, schema, created, last_updated) select 'Profile ' || i, '{}', now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_moduletype (profile_id, manufacturer_id, model, created, last_updated) select i, i, 'Module type ' || i, now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_inventoryitemrole (name, slug, color, created, last_updated) select 'Item role ' || i, 'item-role-' || i, 'aa1409', now(), now() from generate_series(1, ?) i`, [n]);
  const template = (table: string, columns = '', values = '') =>
    db.raw(`insert into ${table} (device_type_id, name, label${columns}, created, last_updated)
      select i, 'Template ' || i, ''${values}, now(), now() from generate_series(1, ?) i`, [n]);
  await template('dcim_consoleporttemplate', ', type', ", 'rj-45'");
  await template('dcim_consoleserverporttemplate', ', type', ", 'rj-45'");
  await template('dcim_powerporttemplate', ', maximum_draw', ', 500');
  await template('dcim_poweroutlettemplate', ', power_port_id', ', i');
  await template('dcim_interfacetemplate', ', type, enabled, mgmt_only, bridge_id', ", '1000base-t', true, false, case when i > 1 then i - 1 end");
  await template('dcim_rearporttemplate', ', type, positions', ", '8p8c', 1");
  await template('dcim_frontporttemplate', ', type, rear_port_id, rear_port_position', ", '8p8c', i, 1");
  await template('dcim_modulebaytemplate', ', position', ", '1'");
  await template('dcim_devicebaytemplate');
  await template('dcim_inventoryitemtemplate', ', parent_id, role_id, manufacturer_id, part_id', ", case when i > 3 then (i % 3) + 1 end, i, i, ''");
  await db.raw(`insert into dcim_virtualchassis (name, domain, created, last_updated) select 'Chassis ' || i, '', now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_device (name, device_type_id, role_id, tenant_id, platform_id, serial, site_id, location_id, rack_id, face, status, airflow,
      virtual_chassis_id, vc_position, created, last_updated)
    select 'device' || i, i, i, i, i, 'SN' || i, i, i, i, '', 'active', '', i, 1, now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`update dcim_virtualchassis set master_id = id`);
  await db.raw(`insert into dcim_virtualdevicecontext (name, device_id, identifier, tenant_id, status, created, last_updated)
    select 'Context ' || i, i, 1, i, 'active', now(), now() from generate_series(1, ?) i`, [n]);
  const component = (table: string, columns = '', values = '') =>
    db.raw(`insert into ${table} (device_id, name, label${columns}, created, last_updated)
      select i, 'port' || i, ''${values}, now(), now() from generate_series(1, ?) i`, [n]);
  await component('dcim_consoleport', ', type, mark_connected', ", 'rj-45', false");
  await component('dcim_consoleserverport', ', type, mark_connected', ", 'rj-45', false");
  await component('dcim_powerport', ', mark_connected', ', false');
  await component('dcim_poweroutlet', ', status, power_port_id, mark_connected', ", 'enabled', i, false");
  await component('dcim_interface', ', type, enabled, mgmt_only, mode, rf_role, rf_channel, poe_mode, poe_type, mark_connected, lag_id',
    ", 'virtual', true, false, '', '', '', '', '', false, null");
  await db.raw(`update dcim_interface set type = '1000base-t', parent_id = null`);
  await db.raw(`insert into dcim_interface_vdcs (interface_id, virtualdevicecontext_id) select i, i from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_macaddress (mac_address, assigned_object_type_id, assigned_object_id, created, last_updated)
    select ('02:00:00:00:' || lpad(to_hex(i / 256), 2, '0') || ':' || lpad(to_hex(i % 256), 2, '0'))::macaddr,
      (select id from core_objecttype where app_label = 'dcim' and model = 'interface'), i, now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`update dcim_interface set primary_mac_address_id = id, bridge_id = case when id > 1 then id - 1 else ? end`, [n]);
  await component('dcim_rearport', ', type, positions, mark_connected', ", '8p8c', 1, false");
  await component('dcim_frontport', ', type, rear_port_id, rear_port_position, mark_connected', ", '8p8c', i, 1, false");
  await component('dcim_modulebay', ', position', ", '1'");
  await component('dcim_devicebay');
  await component('dcim_inventoryitem', ', parent_id, status, role_id, manufacturer_id, part_id, serial, discovered',
    ", case when i > 3 then (i % 3) + 1 end, 'active', i, i, '', '', false");
  await db.raw(`insert into dcim_module (device_id, module_bay_id, module_type_id, status, serial, created, last_updated)
    select i, i, i, 'active', '', now(), now() from generate_series(1, ?) i`, [n]);
  // Power panel i at site i (in location i), feeding rack i.
  await db.raw(`insert into dcim_powerpanel (site_id, location_id, name, description, comments, created, last_updated)
    select i, i, 'Panel ' || i, '', '', now(), now() from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into dcim_powerfeed (power_panel_id, rack_id, name, status, type, supply, phase, voltage, amperage, max_utilization, mark_connected,
      description, tenant_id, comments, created, last_updated)
    select i, i, 'Feed ' || i, 'active', 'primary', 'ac', 'single-phase', 230, 16, 80, false, '', i, '', now(), now() from generate_series(1, ?) i`, [n]);
}
