import type { Knex } from '@mikro-orm/knex';
import { ForeignKeyField, ManyToManyField, type Db, type JsonObject, type Model, type ModelRegistry } from 'patchbay';
import { TAGGED_ITEMS } from '../fields/tags.js';

/** One way a config context is assigned: its many-to-many field, and the path from a device or VM to the value it matches. */
interface Dimension {
  assignment: string;
  path: string[];
}

/** NetBox 4.4's dimensions; on a tree (regions, site groups, locations, roles) a context matches the node's descendants. */
const DIMENSIONS: Dimension[] = [
  { assignment: 'regions', path: ['site', 'region'] },
  { assignment: 'site_groups', path: ['site', 'group'] },
  { assignment: 'sites', path: ['site'] },
  { assignment: 'locations', path: ['location'] },
  { assignment: 'device_types', path: ['device_type'] },
  { assignment: 'roles', path: ['role'] },
  // Platforms are a tree too, but 4.4 matches them exactly.
  { assignment: 'platforms', path: ['platform'] },
  { assignment: 'cluster_types', path: ['cluster', 'type'] },
  { assignment: 'cluster_groups', path: ['cluster', 'group'] },
  { assignment: 'clusters', path: ['cluster'] },
  { assignment: 'tenant_groups', path: ['tenant', 'group'] },
  { assignment: 'tenants', path: ['tenant'] },
];

const EXACT = new Set(['platforms']);

/** Which contexts apply to each object (ids, lowest weight first) and the data of every context named. */
export interface PageContexts {
  matched: Record<string, number[]>;
  data: Record<string, JsonObject>;
}

/**
 * How the contexts of `model` objects are found, in SQL: each object's values along every dimension (joined once),
 * the ancestors of its tree nodes, each active context's assignments as arrays; a context applies when, for every
 * dimension, it names none or the object's value (or an ancestor) is among them, and it names no tag or a tag the
 * object carries. A dimension the model lacks (a VM's location) must be empty. The CTEs end in `matched` (the id of
 * each object that has contexts, and theirs in order); they take the objects' ids (`?`, an integer array's text) and
 * the model's object type (`?`), in that order.
 */
function matching(model: Model, registry: ModelRegistry): string {
  const contexts = registry.get('extras.configcontext');
  const joins: string[] = [];
  const joined = new Map<string, string>();
  const columns: string[] = [];
  const ancestors: string[] = [];
  const conditions: string[] = [];
  const arrays: string[] = [];

  DIMENSIONS.forEach(({ assignment, path }, n) => {
    const field = contexts.field(assignment) as ManyToManyField;
    const { table, source, target } = field.join;
    arrays.push(`array(select j.${target} from ${table} j where j.${source} = cc.id) as a${n}`);
    // Follow the path through foreign keys: `site` → the site's `region`.
    let at = model;
    let alias = 'o';
    let value: string | undefined;
    for (const [step, name] of path.entries()) {
      const fk = registry.fieldOf(at, name);
      if (!(fk instanceof ForeignKeyField)) break;
      value = `${alias}.${fk.column}`;
      at = registry.get(fk.target);
      if (step < path.length - 1) {
        const key = path.slice(0, step + 1).join('.');
        if (!joined.has(key)) {
          joined.set(key, `j${joined.size}`);
          joins.push(`left join ${at.table} ${joined.get(key)} on ${joined.get(key)}.id = ${value}`);
        }
        alias = joined.get(key)!;
      }
      if (step === path.length - 1) {
        columns.push(`${value} as d${n}`);
        value = `p.d${n}`;
      } else value = undefined;
    }
    if (!value) {
      conditions.push(`cardinality(c.a${n}) = 0`);
      return;
    }
    if (at.isTree && !EXACT.has(assignment)) {
      ancestors.push(
        `up${n}(node, id) as (select distinct d${n}, d${n} from page where d${n} is not null ` +
          `union select u.node, t.parent_id from up${n} u join ${at.table} t on t.id = u.id where t.parent_id is not null)`,
      );
      conditions.push(`(cardinality(c.a${n}) = 0 or c.a${n} && array(select u.id from up${n} u where u.node = p.d${n}))`);
    } else {
      conditions.push(`(cardinality(c.a${n}) = 0 or p.d${n} = any(c.a${n}))`);
    }
  });
  const tags = (contexts.field('tags') as ManyToManyField).join;
  arrays.push(`array(select j.${tags.target} from ${tags.table} j where j.${tags.source} = cc.id) as tags`);
  conditions.push(
    `(cardinality(c.tags) = 0 or c.tags && array(select ti.tag_id from ${TAGGED_ITEMS} ti where ti.object_type_id = ? and ti.object_id = p.id))`,
  );

  // The ids behind a subquery: a prepared plan sees one id no more than a thousand, and PostgreSQL keeps one plan for
  // every page, where it planned the statement anew for each object on its own (1.2 ms of its time a render).
  return `with recursive
    page as (select o.id, ${columns.join(', ')} from ${model.table} o ${joins.join(' ')} where o.id = any(array(select unnest(?::int[])))),
    ${ancestors.map((a) => `${a},`).join('\n    ')}
    contexts as (select cc.id, cc.weight, cc.name, ${arrays.join(', ')} from ${contexts.table} cc where cc.is_active),
    matched as (
      select p.id, array_agg(c.id order by c.weight, c.name) as ids from page p join contexts c on ${conditions.join(' and ')} group by p.id
    )`;
}

/** The bindings of `matching`'s statement: the ids as one PostgreSQL array literal (however many), the object type. */
const bindingsOf = (model: Model, registry: ModelRegistry, ids: readonly number[]) => [`{${ids.join(',')}}`, registry.objectTypes.idOf(model.key) ?? 0];

/**
 * The statement finding the contexts of a page of `model` objects: which contexts apply to each (`matched`), and the
 * data of each context named once, however many objects it applies to. Built once per model.
 */
export function contextStatement(model: Model, registry: ModelRegistry): (db: Db, ids: number[]) => Promise<PageContexts> {
  const contexts = registry.get('extras.configcontext');
  const sql = `${matching(model, registry)}
    select (select coalesce(json_object_agg(m.id, m.ids), '{}') from matched m) as matched,
      (select coalesce(json_object_agg(cc.id, cc.data), '{}') from ${contexts.table} cc where cc.id in (select unnest(m.ids) from matched m)) as data`;
  return async (db, ids) => {
    const result = await db.raw(sql, bindingsOf(model, registry, ids));
    const row = (result as { rows: PageContexts[] }).rows[0];
    return { matched: row.matched, data: row.data };
  };
}

/**
 * The contexts of `model` objects as a derived table (`id`, `datas`: the data of the contexts that apply, lowest
 * weight first), to join to a read of the objects themselves; an object without contexts has no row. Built once per
 * model; the bindings are for `ids`.
 */
export function contextRows(model: Model, registry: ModelRegistry): (ids: readonly number[]) => { sql: string; bindings: Knex.Value[] } {
  const contexts = registry.get('extras.configcontext');
  const sql = `${matching(model, registry)}
    select m.id, (select json_agg(cc.data order by array_position(m.ids, cc.id)) from ${contexts.table} cc where cc.id = any(m.ids)) as datas
    from matched m`;
  return (ids) => ({ sql, bindings: bindingsOf(model, registry, ids) });
}
