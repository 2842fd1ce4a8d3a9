import type { Db } from '../../kernel/base/types.js';

/**
 * Fills the tenancy tables with `n` rows each, every relation set (trees three levels deep, the
 * roots sorting last; m2m links; generic assignments), straight in SQL so that large pages are cheap to prepare.
 */
export async function seedTenancy(db: Db, n: number): Promise<void> {
  const now = 'now()';
  await db.raw(`insert into tenancy_tenantgroup (name, slug, parent_id, created, last_updated)
    select case when i > 3 then 'Group ' else 'Root ' end || i, 'group-' || i, case when i > 3 then (i % 3) + 1 end, ${now}, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into tenancy_tenant (name, slug, group_id, created, last_updated)
    select 'Tenant ' || i, 'tenant-' || i, (i % ?) + 1, ${now}, ${now} from generate_series(1, ?) i`, [n, n]);
  await db.raw(`insert into tenancy_contactgroup (name, slug, parent_id, created, last_updated)
    select case when i > 3 then 'CGroup ' else 'Root ' end || i, 'cgroup-' || i, case when i > 3 then (i % 3) + 1 end, ${now}, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into tenancy_contactrole (name, slug, created, last_updated)
    select 'Role ' || i, 'role-' || i, ${now}, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into tenancy_contact (name, created, last_updated)
    select 'Contact ' || i, ${now}, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into tenancy_contact_groups (contact_id, contactgroup_id)
    select i, (i % ?) + 1 from generate_series(1, ?) i union select i, ((i + 1) % ?) + 1 from generate_series(1, ?) i`, [n, n, n, n]);
  await db.raw(`insert into tenancy_contactassignment (object_type_id, object_id, contact_id, role_id, priority, created, last_updated)
    select (select id from core_objecttype where app_label = 'tenancy' and model = 'tenant'), i, i, i, 'primary', ${now}, ${now}
    from generate_series(1, ?) i`, [n]);
}
