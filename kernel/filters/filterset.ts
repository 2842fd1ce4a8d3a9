import type { Knex } from '@mikro-orm/knex';
import type { Field } from '../model/field.js';
import { ChoiceField } from '../model/fields/choice.js';
import { ForeignKeyField, ParentField } from '../model/fields/foreign-key.js';
import { GenericForeignKeyField } from '../model/fields/generic.js';
import { ManyToManyField } from '../model/fields/many-to-many.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Db } from '../model/types.js';
import { and, cmp, not, or, type FilterNode, type Lookup } from './tree.js';
import { ParamError, parseBoolean, parseValue } from './values.js';

/** What a query-string filter needs besides its values. */
export interface FilterContext {
  db: Db;
  registry: ModelRegistry;
}

/** One query-string filter (`name`, plus the lookup suffixes it accepts as `name__<suffix>`). */
export interface QueryFilter {
  suffixes: readonly string[];
  /** Builds the condition for `suffix` ('' for the bare name) and the repeated values; throws ParamError. */
  build(suffix: string, values: string[], ctx: FilterContext): FilterNode | Promise<FilterNode>;
}

const STRING_SUFFIXES = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty', 'regex', 'iregex'] as const;
const NUMBER_SUFFIXES = ['n', 'lt', 'lte', 'gt', 'gte', 'empty'] as const;

const TEXT_LOOKUPS: Record<string, Lookup> = { ic: 'icontains', isw: 'istartswith', iew: 'iendswith', ie: 'iexact', regex: 'regex', iregex: 'iregex' };
const NUMBER_LOOKUPS: Record<string, Lookup> = { lt: 'lt', lte: 'lte', gt: 'gt', gte: 'gte' };

function onlyOne(values: string[]): string {
  return values[values.length - 1];
}

/** Exact match of any value (repeats OR); `n`: none of them. */
function anyOf(path: string[], values: unknown[], negate: boolean): FilterNode {
  const node = values.length === 1 ? cmp(path, 'exact', values[0]) : cmp(path, 'in', values);
  return negate ? not(node) : node;
}

async function checkRegex(db: Db, pattern: string): Promise<void> {
  try {
    await db.raw(`select '' ~ ?`, [pattern]);
  } catch (err) {
    throw new ParamError(`Invalid regular expression: ${(err as Error).message.split(' - ').pop()}`);
  }
}

/** Filters of a text or choice field: exact (case-sensitive), the string lookups and their negations. */
function textFilter(path: string[], check: (v: string) => void = () => {}): QueryFilter {
  return {
    suffixes: STRING_SUFFIXES,
    async build(suffix, values, ctx) {
      if (suffix === '' || suffix === 'n') {
        values.forEach(check);
        return anyOf(path, values, suffix === 'n');
      }
      if (suffix === 'empty') return cmp(path, 'empty', parseBoolean(onlyOne(values)));
      const negated = suffix.startsWith('n') && suffix !== 'n';
      const lookup = TEXT_LOOKUPS[negated ? suffix.slice(1) : suffix];
      if (lookup === 'regex' || lookup === 'iregex') for (const v of values) await checkRegex(ctx.db, v);
      const node = or(values.map((v) => cmp(path, lookup, v)));
      return negated ? not(node) : node;
    },
  };
}

/** Filters of a number, date or datetime field: exact, `n` and comparisons. */
function orderedFilter(path: string[], kind: 'integer' | 'decimal' | 'date' | 'datetime'): QueryFilter {
  return {
    suffixes: NUMBER_SUFFIXES,
    build(suffix, values) {
      if (suffix === 'empty') return cmp(path, 'isnull', parseBoolean(onlyOne(values)));
      const parsed = values.map((v) => parseValue(kind, v));
      if (suffix === '' || suffix === 'n') return anyOf(path, parsed, suffix === 'n');
      return or(parsed.map((v) => cmp(path, NUMBER_LOOKUPS[suffix], v)));
    },
  };
}

/** The attribute that names a related object in `?<relation>=<value>`: slug, else username, else name. */
function naturalKey(target: Model): string | undefined {
  return ['slug', 'username', 'name'].find((n) => target.field(n));
}

const isTree = (model: Model) => model.fields.some((f) => f instanceof ParentField);

/**
 * `<relation>_id` and `<relation>` (by natural key) filters. Values must name existing objects (NetBox's
 * "Select a valid choice"); `null` selects objects without one; on a tree target a node matches its descendants too.
 */
function relationFilter(path: string[], target: Model, by: 'id' | string, tree: boolean): QueryFilter {
  return {
    suffixes: ['n'],
    async build(suffix, values, ctx) {
      const wantsNull = values.includes('null');
      const given = values.filter((v) => v !== 'null');
      const keys = by === 'id' ? given.map((v) => parseValue('fk', v) as number) : given;
      let ids: number[] = [];
      if (keys.length) {
        const rows = (await ctx.db(target.table).select('id', `${by} as key`).whereIn(by, keys as Knex.Value[])) as { id: number; key: unknown }[];
        const found = new Set(rows.map((r) => String(r.key)));
        const missing = keys.find((k) => !found.has(String(k)));
        if (missing !== undefined) throw new ParamError(`Select a valid choice. ${missing} is not one of the available choices.`);
        ids = rows.map((r) => r.id);
      }
      const parts: FilterNode[] = [];
      if (ids.length) parts.push(cmp(path, tree ? 'tree' : 'in', ids));
      if (wantsNull) parts.push(cmp(path, 'isnull', true));
      const node = or(parts);
      return suffix === 'n' ? not(node) : node;
    },
  };
}

/** `<name>_type` (`app.model`), `<name>_type_id` and `<name>_id` of a generic relation. */
function genericFilters(field: GenericForeignKeyField): Record<string, QueryFilter> {
  const column = (name: string, values: () => unknown[]): FilterNode => ({
    op: 'sql',
    condition: (qb, alias) => {
      qb.whereIn(`${alias}.${name}`, values() as Knex.Value[]);
    },
  });
  const ids = (values: string[]) => values.map((v) => parseValue('integer', v));
  const numeric = (name: string): QueryFilter => ({
    suffixes: ['n'],
    build: (suffix, values) => {
      const node = column(name, () => ids(values));
      return suffix === 'n' ? not(node) : node;
    },
  });
  return {
    [field.typeKey]: {
      suffixes: ['n'],
      build(suffix, values, ctx) {
        const typeIds = values.map((v) => {
          const id = ctx.registry.objectTypes.idOf(v);
          if (id === undefined) throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
          return id;
        });
        const node = column(field.typeColumn, () => typeIds);
        return suffix === 'n' ? not(node) : node;
      },
    },
    [`${field.typeKey}_id`]: numeric(field.typeColumn),
    [field.idKey]: numeric(field.idKey),
  };
}

/** The query-string filters NetBox derives from one field. */
function fieldFilters(field: Field, registry: ModelRegistry): Record<string, QueryFilter> {
  const kind = field.filterKind();
  const path = [field.name];
  switch (kind) {
    case 'string':
      return { [field.name]: textFilter(path) };
    case 'choice': {
      const set = (field as ChoiceField).set;
      return {
        [field.name]: textFilter(path, (v) => {
          if (!set.has(v)) throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
        }),
      };
    }
    case 'integer':
    case 'decimal':
    case 'date':
    case 'datetime':
      return { [field.name]: orderedFilter(path, kind) };
    case 'boolean':
      return { [field.name]: { suffixes: [], build: (_s, values) => cmp(path, 'exact', parseBoolean(onlyOne(values))) } };
    case 'list':
      return { [field.name]: { suffixes: [], build: (_s, values) => or(values.map((v) => cmp(path, 'has', v))) } };
    case 'fk':
    case 'm2m': {
      const relation = field as ForeignKeyField | ManyToManyField;
      const target = registry.get(relation.target);
      // NetBox names many-to-many filters in the singular: `groups` → `group_id`, `group`.
      const base = kind === 'm2m' ? field.name.replace(/s$/, '') : field.name;
      const tree = isTree(target) && !(field instanceof ParentField);
      const filters: Record<string, QueryFilter> = { [`${base}_id`]: relationFilter(path, target, 'id', tree) };
      const key = naturalKey(target);
      if (key) filters[base] = relationFilter(path, target, key, tree);
      if (field instanceof ParentField) {
        filters.ancestor_id = relationFilter(path, target, 'id', true);
        if (key) filters.ancestor = relationFilter(path, target, key, true);
      }
      return filters;
    }
    case 'generic':
      return genericFilters(field as GenericForeignKeyField);
    default:
      return {};
  }
}

/** `q`: case-insensitive match on any of the model's search fields (a relation searches its target's name). */
function searchFilter(model: Model, registry: ModelRegistry): QueryFilter | undefined {
  const paths = model.search.flatMap((name) => {
    const field = model.field(name);
    if (field instanceof ForeignKeyField) {
      const key = ['name', 'username', 'slug'].find((n) => registry.get(field.target).field(n));
      return key ? [[name, key]] : [];
    }
    return field?.filterKind() === 'string' ? [[name]] : [];
  });
  if (!paths.length) return undefined;
  return {
    suffixes: [],
    build: (_s, values) => {
      const text = onlyOne(values).trim();
      return text ? or(paths.map((p) => cmp(p, 'icontains', text))) : and([]);
    },
  };
}

/** Filters plugins add to other plugins' models (tags, custom fields...), without the kernel knowing them. */
export interface FilterExtension {
  appliesTo(model: Model): boolean;
  filters(model: Model): Record<string, QueryFilter>;
  /** Filters whose names are only known at request time (`cf_<name>` of custom fields defined through the API). */
  resolve?(model: Model, name: string): QueryFilter | undefined;
}

/** Every query-string filter of every model, derived once at start-up from the declarations and extensions. */
export class FilterSets {
  private readonly sets = new Map<string, Map<string, QueryFilter>>();
  private readonly extensions: FilterExtension[] = [];

  constructor(private readonly registry: ModelRegistry) {}

  extend(extension: FilterExtension): void {
    this.extensions.push(extension);
    this.sets.clear();
  }

  /** The filter called `name` on `model`, declared or resolved by an extension. */
  lookup(model: Model, name: string): QueryFilter | undefined {
    const found = this.of(model).get(name);
    if (found) return found;
    for (const ext of this.extensions) {
      const resolved = ext.appliesTo(model) ? ext.resolve?.(model, name) : undefined;
      if (resolved) return resolved;
    }
    return undefined;
  }

  of(model: Model): Map<string, QueryFilter> {
    let set = this.sets.get(model.key);
    if (!set) {
      set = new Map();
      for (const field of model.fields) for (const [name, filter] of Object.entries(fieldFilters(field, this.registry))) set.set(name, filter);
      const q = searchFilter(model, this.registry);
      if (q) set.set('q', q);
      for (const ext of this.extensions) if (ext.appliesTo(model)) for (const [name, filter] of Object.entries(ext.filters(model))) set.set(name, filter);
      this.sets.set(model.key, set);
    }
    return set;
  }
}
