import type { Db } from '../../kernel/model/types.js';

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
}
