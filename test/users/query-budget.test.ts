import { budgetSuite, seededServer, type FilteredBudgets, type ListBudgets } from '../helpers/budgets.js';

/** A thousand of each: users in a group each, with a token and a permission given to both. */
const server = seededServer(async (db) => {
  await db.raw(`insert into users_group (name, description, created, last_updated) select 'Group ' || i, '', now(), now() from generate_series(1, 1000) i`);
  await db.raw(`insert into users_user (username, password, first_name, last_name, email, is_staff, is_active, is_superuser, date_joined, created, last_updated)
    select 'user' || i, 'scrypt$unusable', 'First ' || i, 'Last', 'user' || i || '@example.com', false, true, false, now(), now(), now() from generate_series(1, 1000) i`);
  await db.raw(`insert into users_user_groups (user_id, group_id) select u.id, g.id from users_user u join users_group g on g.name = 'Group ' || substr(u.username, 5)`);
  await db.raw(`insert into users_objectpermission (name, description, enabled, object_types, actions, constraints, created, last_updated)
    select 'Permission ' || i, '', true, '{tenancy.tenant,dcim.site}', '{view,change}', '{"name__istartswith": "a"}', now(), now() from generate_series(1, 1000) i`);
  await db.raw(`insert into users_objectpermission_users (objectpermission_id, user_id)
    select p.id, u.id from users_objectpermission p join users_user u on u.username = 'user' || substr(p.name, 12)`);
  await db.raw(`insert into users_objectpermission_groups (objectpermission_id, group_id)
    select p.id, g.id from users_objectpermission p join users_group g on g.name = 'Group ' || substr(p.name, 12)`);
  await db.raw(`insert into users_token (user_id, key, key_digest, write_enabled, description, allowed_ips, created, last_updated)
    select u.id, k.key, encode(sha256(k.key::bytea), 'hex'), true, '', '{10.0.0.0/8}', now(), now()
    from users_user u cross join lateral (select substr(md5(u.username) || md5(u.email), 1, 40) as key) k where u.username like 'user%'`);
});

/**
 * SQL statements per users list request: the same at page sizes 1, 50 and 1000. Users are read newest first, so that a
 * page of one holds a user with groups and permissions as larger pages do (the admin has none).
 */
const BUDGETS: ListBudgets = {
  '/api/users/users/?ordering=-id': { full: 6, brief: 2 },
  '/api/users/groups/': { full: 5, brief: 2 },
  '/api/users/permissions/': { full: 6, brief: 2 },
  '/api/users/tokens/': { full: 3, brief: 2 },
};

/** Filters that check the objects they name cost one query each. */
const FILTERED: FilteredBudgets = {
  '/api/users/users/': { query: 'group_id=1&q=user&is_active=true', budget: 7 },
  '/api/users/permissions/': { query: 'user_id=2&object_type=tenancy.tenant&can_view=true', budget: 7 },
  '/api/users/tokens/': { query: 'user=user5&write_enabled=true', budget: 4 },
};

budgetSuite('users list query budgets', server, BUDGETS, FILTERED);
