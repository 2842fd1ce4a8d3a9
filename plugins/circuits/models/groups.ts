import { defineModel, f, loadDisplays, not, parseWholeNumber, type Db, type FilterNode, type QueryFilter, type RenderContext, type Row } from 'patchbay';
import { negatable, pointingAt } from '../../ipam/api.js';
import { CircuitPriority } from '../choices.js';

/** A set of circuits (and virtual circuits) managed together. */
export const CircuitGroup = defineModel('circuits.circuitgroup', {
  path: 'circuit-groups',
  verboseName: 'circuit group',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect' }),
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});

/** `Backbone (Primary)`: the group, with the priority when there is one. */
async function assignmentDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const groups = await loadDisplays(CircuitGroup, rows.map((r) => r.group_id as number), ctx);
  return new Map(rows.map((r) => [r.id as number, `${groups.get(r.group_id as number) ?? ''}${r.priority ? ` (${CircuitPriority.label(r.priority as string)})` : ''}`]));
}

/** Assignments whose member is a circuit (or virtual circuit) of `table` with `column` among the values. */
const memberFilter = (model: string, table: string, column: string, parse: (v: string) => string | number): QueryFilter =>
  negatable((values) => {
    const keys = values.map(parse);
    return pointingAt('member', model, (db) => db(table).select('id').whereIn(column, keys));
  });

/** Assignments of a provider's circuits and virtual circuits, by provider id or slug. */
function providerFilter(by: 'id' | 'slug'): QueryFilter {
  return {
    suffixes: ['n'],
    build: (suffix, values) => {
      const keys = by === 'id' ? values.map(parseWholeNumber) : values;
      const providers = (db: Db) => db('circuits_provider').select('id').whereIn(by, keys);
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, alias, _m, db) =>
          void qb.where((w) =>
            w.where((q) => q.whereIn(`${alias}.member_type_id`, db('core_objecttype').select('id').where({ app_label: 'circuits', model: 'circuit' }))
              .whereIn(`${alias}.member_id`, db('circuits_circuit').select('id').whereIn('provider_id', providers(db))))
              .orWhere((q) => q.whereIn(`${alias}.member_type_id`, db('core_objecttype').select('id').where({ app_label: 'circuits', model: 'virtualcircuit' }))
                .whereIn(`${alias}.member_id`, db('circuits_virtualcircuit as v').join('circuits_providernetwork as n', 'n.id', 'v.provider_network_id').select('v.id').whereIn('n.provider_id', providers(db)))),
          ),
      };
      return suffix === 'n' ? not(node) : node;
    },
  };
}

/** A circuit's or virtual circuit's place in a group, with a priority. */
export const CircuitGroupAssignment = defineModel('circuits.circuitgroupassignment', {
  path: 'circuit-group-assignments',
  verboseName: 'circuit group assignment',
  fields: {
    group: f.fk('circuits.circuitgroup', { onDelete: 'cascade', countAs: 'circuit_count' }),
    member: f.generic({ models: ['circuits.circuit', 'circuits.virtualcircuit'] }),
    priority: f.choice(CircuitPriority, { blank: true }),
  },
  unique: [{ fields: ['member', 'group'] }],
  brief: ['group', 'member_type', 'member_id', 'member', 'priority'],
  displayLoader: assignmentDisplays,
  displayUses: ['group', 'priority'],
  ordering: ['group', 'member', 'priority', 'id'],
  parent: 'member',
  search: ['member__cid', 'group'],
  filters: {
    circuit: memberFilter('circuits.circuit', 'circuits_circuit', 'cid', String),
    circuit_id: memberFilter('circuits.circuit', 'circuits_circuit', 'id', parseWholeNumber),
    virtual_circuit: memberFilter('circuits.virtualcircuit', 'circuits_virtualcircuit', 'cid', String),
    virtual_circuit_id: memberFilter('circuits.virtualcircuit', 'circuits_virtualcircuit', 'id', parseWholeNumber),
    provider: providerFilter('slug'),
    provider_id: providerFilter('id'),
  },
  features: ['tags', 'changelog'],
});
