import {
  ParamError, not, or, parseWholeNumber, relationFilter,
  type Db, type FilterExtension, type FilterNode, type Model, type ModelRegistry, type QueryFilter, type SqlCondition,
} from 'patchbay';
import { ContactGroup } from './models/contact-group.js';
import { ContactRole } from './models/contact-role.js';
import { Contact } from './models/contact.js';
import { TenantGroup } from './models/tenant-group.js';

/** NetBox's TenancyFilterSet beside `tenant`/`tenant_id`: the tenant's group, a group matching its descendants. */
export function tenantGroupFilters(registry: ModelRegistry): FilterExtension {
  return {
    appliesTo: (model) => model.field('tenant')?.describe(registry).some((p) => p.relation === 'tenancy.tenant') ?? false,
    filters: () => ({
      tenant_group_id: relationFilter(['tenant', 'group'], TenantGroup, 'id', true),
      tenant_group: relationFilter(['tenant', 'group'], TenantGroup, 'slug', true),
    }),
  };
}

/** Objects with a contact assignment whose `column` is among `values` (ids, or a subquery of them). */
function assigned(column: 'contact_id' | 'role_id', values: (db: Db) => number[] | ReturnType<Db>): FilterNode {
  const condition: SqlCondition = (qb, alias, model, db) => {
    qb.whereIn(
      `${alias}.id`,
      db('tenancy_contactassignment')
        .select('object_id')
        .whereIn('object_type_id', db('core_objecttype').select('id').where({ app_label: model.app, model: model.name }))
        .whereIn(column, values(db)),
    );
  };
  return { op: 'sql', condition };
}

/** A filter by ids of `target` that must exist; repeats OR, `__n` excludes. */
function assignmentFilter(target: Model, node: (ids: number[]) => FilterNode): QueryFilter {
  return {
    suffixes: ['n'],
    async build(suffix, values, ctx) {
      const ids = values.map(parseWholeNumber);
      const found = new Set(((await ctx.db(target.table).select('id').whereIn('id', ids)) as { id: number }[]).map((r) => r.id));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) throw new ParamError(`Select a valid choice. ${missing} is not one of the available choices.`);
      const matched = or([node(ids)]);
      return suffix === 'n' ? not(matched) : matched;
    },
  };
}

/** `contact`, `contact_role` and `contact_group` (a group matching its descendants) on models with contacts. */
export const contactFilters: FilterExtension = {
  appliesTo: (model) => model.features.has('contacts'),
  filters: () => ({
    contact: assignmentFilter(Contact, (ids) => assigned('contact_id', () => ids)),
    contact_role: assignmentFilter(ContactRole, (ids) => assigned('role_id', () => ids)),
    contact_group: assignmentFilter(ContactGroup, (ids) =>
      assigned('contact_id', (db) =>
        db('tenancy_contact_groups')
          .select('contact_id')
          .whereIn(
            'contactgroup_id',
            db.withRecursive('tree', ['id'], (q) =>
              q.select('id').from(ContactGroup.table).whereIn('id', ids).union((u) =>
                u.select('c.id').from(`${ContactGroup.table} as c`).join('tree', 'tree.id', 'c.parent_id'),
              ),
            ).select('id').from('tree'),
          ),
      ),
    ),
  }),
};
