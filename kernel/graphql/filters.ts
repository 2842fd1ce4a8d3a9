import type { Knex } from '@mikro-orm/knex';
import { GraphQLError } from 'graphql';
import type { SchemaComposer } from 'graphql-compose';
import { checkRegex, type FilterContext } from '../filters/builders.js';
import { applyFilter } from '../filters/compile.js';
import { FilterError, ParamError } from '../filters/errors.js';
import type { FilterSets } from '../model/filter-sets.js';
import { and, cmp, not, or, type FilterNode } from '../filters/tree.js';
import type { PropertyDescription } from '../model/description.js';
import type { Field } from '../model/field.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { BackLink } from '../model/offered-lists.js';
import type { Enums } from './enums.js';
import { lookupInput, lookupPairs, viaQueryFilter, type LookupKind, type LookupPair } from './lookups.js';

/** Who filters: related objects they may not view match none of their filters. */
export interface FilterReader {
  /** A condition keeping the objects of `model` the reader may view; undefined when they may view all. */
  visible(model: Model): Promise<FilterNode | undefined>;
}

/** Turns the value given to one filter key into the kernel's filter tree; `path` names the key in errors. */
type KeyCompiler = (value: unknown, path: string, reader: FilterReader) => Promise<FilterNode> | FilterNode;

/** A filter a plugin adds to models' filter inputs (custom fields' `custom_field_data`). */
export interface FilterContribution {
  appliesTo(model: Model): boolean;
  name: string;
  /** The GraphQL input type it takes (declared in the plugin's type definitions). */
  type: string;
  /** Builds the condition; a ParamError or FilterError it throws becomes an error naming the filter. */
  compile(value: unknown, model: Model): FilterNode | Promise<FilterNode>;
}

export interface FilterSources {
  composer: SchemaComposer<unknown>;
  registry: ModelRegistry;
  filters: FilterSets;
  enums: Enums;
  db: Knex;
  /** The GraphQL type of a model's objects, when the model is in the schema. */
  typeOf(model: Model): string | undefined;
  /** The lists other models' fields offer on `model` (its foreign keys' reverse sides), with their source model. */
  backLinks(model: Model): { source: Model; link: BackLink }[];
  contributions: FilterContribution[];
}

/** A GraphQL error about a filter, naming it by its path in the `filters` argument. */
const filterError = (path: string, message: string) => new GraphQLError(`${path}: ${message}`, { extensions: { code: 'BAD_FILTER' } });

const TREE_MATCHES = ['EXACT', 'DESCENDANTS', 'SELF_AND_DESCENDANTS', 'CHILDREN', 'SIBLINGS', 'ANCESTORS', 'PARENT'] as const;
type TreeMatch = (typeof TREE_MATCHES)[number];

let aliases = 0;

/**
 * Every model's GraphQL filter input (`SiteFilter`), in NetBox 4.3+'s syntax, derived from the same field
 * descriptions as the types, and compiled into the kernel's one filter tree: lookups per kind of value, enums,
 * nested filters on related objects and lists, the REST filters fields do not derive (`q`, `tag`, model methods),
 * and `AND`/`OR`/`NOT`/`DISTINCT`.
 */
export class FilterInputs {
  private readonly compilers = new Map<string, Map<string, KeyCompiler>>();

  constructor(private readonly s: FilterSources) {
    s.composer.createEnumTC({ name: 'TreeNodeMatch', values: Object.fromEntries(TREE_MATCHES.map((m) => [m, { value: m }])) });
    s.composer.createInputTC({ name: 'TreeNodeFilter', fields: { id: 'ID!', match_type: 'TreeNodeMatch!' } });
    // The lookups of every kernel scalar exist whatever the models use: plugins' type definitions may name them.
    for (const [kind, scalar] of [['text', 'String'], ['boolean', 'Boolean'], ['id', 'ID'], ['ordered', 'Int'], ['ordered', 'BigInt'], ['ordered', 'Float'], ['ordered', 'DateTime'], ['ordered', 'Date']] as const) {
      lookupInput(s.composer, kind, scalar);
    }
  }

  /** The filter input's name for `model`, made on first use. */
  inputName(model: Model): string {
    const name = `${model.className}Filter`;
    if (!this.compilers.has(model.key)) {
      this.compilers.set(model.key, new Map());
      // Registered before its fields are defined: they may refer to it (a tree's parent) or to models referring back.
      const input = this.s.composer.createInputTC({ name, fields: {} });
      input.addFields(this.define(model));
    }
    return name;
  }

  /** The filter tree of a `filters` argument, or a GraphQL error naming the key that cannot apply. */
  async compile(model: Model, input: unknown, reader: FilterReader, path = 'filters'): Promise<FilterNode> {
    if (input === null || input === undefined) return and([]);
    this.inputName(model);
    const keys = this.compilers.get(model.key)!;
    const nodes: FilterNode[] = [];
    let alternatives: FilterNode | undefined;
    for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
      if (value === null || value === undefined) continue;
      const compileKey = keys.get(key);
      if (!compileKey) throw filterError(`${path}.${key}`, 'unknown filter.');
      const node = await compileKey(value, `${path}.${key}`, reader);
      this.check(model, node, `${path}.${key}`);
      if (key === 'OR') alternatives = node;
      else nodes.push(node);
    }
    // NetBox's (strawberry-django's) logic: the other keys, OR each alternative (alone when there are no others).
    if (!alternatives) return and(nodes);
    const alternativesOf = alternatives.op === 'or' ? alternatives.nodes : [alternatives];
    return nodes.length ? or([and(nodes), ...alternativesOf]) : or(alternativesOf);
  }

  /** A filter on related objects: only those the reader may view can match it. */
  private async related(target: Model, value: unknown, reader: FilterReader, path: string): Promise<FilterNode> {
    const [node, visible] = await Promise.all([this.compile(target, value, reader, path), reader.visible(target)]);
    return visible ? and([node, visible]) : node;
  }

  /** Compiles a node against the model now (no SQL runs), so that a comparison that cannot apply names its key. */
  private check(model: Model, node: FilterNode, path: string): void {
    try {
      applyFilter(this.s.db(`${model.table} as t`), model, node, { db: this.s.db, registry: this.s.registry });
    } catch (err) {
      if (err instanceof FilterError) throw filterError(path, err.message);
      throw err;
    }
  }

  /** The input's fields, and their compilers, from the model's declarations. */
  private define(model: Model): Record<string, string> {
    const { registry } = this.s;
    const fields: Record<string, string> = {};
    const compilers = this.compilers.get(model.key)!;
    const add = (key: string, type: string, compile: KeyCompiler) => {
      if (key in fields) return;
      fields[key] = type;
      compilers.set(key, compile);
    };
    const self = this.inputName(model);
    const logic = (combine: (nodes: FilterNode[]) => FilterNode): KeyCompiler => async (value, path, reader) =>
      combine(await Promise.all((value as unknown[]).map((v, i) => this.compile(model, v, reader, `${path}[${i}]`))));
    // Combined with the other keys in compile(): AND and NOT narrow them, OR widens them.
    add('AND', `[${self}!]`, logic(and));
    add('OR', `[${self}!]`, logic((nodes) => or(nodes)));
    add('NOT', `[${self}!]`, logic((nodes) => and(nodes.map(not))));
    // Relations compile to subqueries: rows never repeat, so DISTINCT has nothing to do.
    add('DISTINCT', 'Boolean', () => and([]));

    const fromFields = new Set<string>();
    for (const field of [...model.fields, ...registry.contributedFields(model), ...registry.derivedFields(model)]) {
      Object.keys(field.filters(registry)).forEach((name) => fromFields.add(name));
      for (const p of field.describe(registry)) {
        if (!p.writeOnly) this.key(model, field, p, add);
      }
    }
    for (const { source, link } of this.s.backLinks(model)) {
      add(link.name, this.inputName(source), async (value, path, reader) => this.backLinked(source, link, await this.related(source, value, reader, path)));
    }
    for (const c of this.s.contributions.filter((c) => c.appliesTo(model))) add(c.name, c.type, (value, path) => this.guard(path, () => c.compile(value, model)));
    // The REST filters no field derives: the model's own methods, related paths, `q`, `tag`…
    for (const [name, filter] of this.s.filters.of(model)) {
      if (fromFields.has(name)) continue;
      const boolean = filter.value?.type === 'boolean';
      add(name, boolean ? 'Boolean' : 'FilterValues', (value, path) => this.guard(path, () => filter.build('', boolean ? [String(value)] : (value as string[]), this.scope)));
    }
    return fields;
  }

  /** The filter keys of one described key of a field. */
  private key(model: Model, field: Field, p: PropertyDescription, add: (key: string, type: string, compile: KeyCompiler) => void): void {
    const { registry } = this.s;
    const walk = field.walk(p.key, registry);
    if (walk) {
      const target = walk.targets.length === 1 ? registry.find(walk.targets[0]) : undefined;
      if (!target || !this.s.typeOf(target) || !this.supports(model, field, 'matches')) return;
      add(p.key, this.inputName(target), async (value, path, reader) => cmp([field.name], 'matches', await this.related(target, value, reader, path)));
      if (walk.many) return;
      if (target.isTree && !field.treeParent) add(`${p.key}_id`, 'TreeNodeFilter', (value, path) => this.treeNode(field, target, value as { id: string; match_type: TreeMatch }, path));
      else add(`${p.key}_id`, lookupInput(this.s.composer, 'id', 'ID'), (value, path) => this.pairs(value, path, ({ lookup, value: v }) => cmp([field.name], lookup, v)));
      return;
    }
    const kind = this.kindOf(model, field, p);
    if (!kind) return;
    const type = lookupInput(this.s.composer, kind.kind, kind.scalar);
    if (p.key === field.name && Object.keys(field.lookups()).length) {
      add(p.key, type, (value, path) => this.pairs(value, path, ({ lookup, value: v }) => cmp([field.name], lookup, v)));
      return;
    }
    const rest = this.s.filters.lookup(model, p.key);
    if (rest) add(p.key, type, (value, path) => this.guard(path, () => viaQueryFilter(rest, value as Record<string, unknown>, this.scope)));
  }

  /** The lookup input a described value takes. */
  private kindOf(model: Model, field: Field, p: PropertyDescription): { kind: LookupKind; scalar: string } | undefined {
    if (p.scalar === 'ID') return { kind: 'id', scalar: 'ID' };
    // A field kind's own scalar, compared in order where the kind orders its values.
    if (p.scalar) return { kind: field.lookups().gt ? 'ordered' : 'text', scalar: p.scalar };
    if (p.choices && p.labelled) return { kind: 'enum', scalar: this.s.enums.of(model, p) };
    switch (p.type) {
      case 'string':
        if (p.format === 'date-time') return { kind: 'ordered', scalar: 'DateTime' };
        if (p.format === 'date') return { kind: 'ordered', scalar: 'Date' };
        return { kind: 'text', scalar: 'String' };
      case 'integer':
        return { kind: 'ordered', scalar: p.format === 'int64' ? 'BigInt' : 'Int' };
      case 'number':
        return { kind: 'ordered', scalar: 'Float' };
      case 'boolean':
        return { kind: 'boolean', scalar: 'Boolean' };
      default:
        return undefined;
    }
  }

  /** Whether the field's kind compiles `lookup` (asked of the field itself, by compiling an empty comparison). */
  private supports(model: Model, field: Field, lookup: string): boolean {
    try {
      applyFilter(this.s.db(`${model.table} as t`), model, cmp([field.name], lookup, and([])), { db: this.s.db, registry: this.s.registry });
      return true;
    } catch (err) {
      if (err instanceof FilterError) return false;
      throw err;
    }
  }

  /** The comparisons of a lookup object, each made into a node and ANDed; regular expressions checked first. */
  private async pairs(value: unknown, path: string, node: (pair: LookupPair) => FilterNode | Promise<FilterNode>): Promise<FilterNode> {
    const nodes: FilterNode[] = [];
    for (const pair of lookupPairs(value as Record<string, unknown>)) {
      if (pair.lookup === 'regex' || pair.lookup === 'iregex') await this.regex(String(pair.value), path);
      nodes.push(await node(pair));
    }
    return and(nodes);
  }

  private async regex(pattern: string, path: string): Promise<void> {
    try {
      await checkRegex(this.s.db, pattern);
    } catch (err) {
      if (err instanceof ParamError) throw filterError(path, err.message);
      throw err;
    }
  }

  private get scope(): FilterContext {
    return { db: this.s.db, registry: this.s.registry };
  }

  /** A condition built by a REST filter or a plugin: what they refuse is an error naming the key. */
  private async guard(path: string, build: () => FilterNode | Promise<FilterNode>): Promise<FilterNode> {
    try {
      return await build();
    } catch (err) {
      if (err instanceof ParamError || err instanceof FilterError) throw filterError(path, err.message);
      throw err;
    }
  }

  /** Rows with at least one object of a back-link's list matching `node`. */
  private backLinked(source: Model, link: BackLink, node: FilterNode): FilterNode {
    const { registry } = this.s;
    return {
      op: 'sql',
      condition: (qb, alias, _model, db) => {
        const sub = `bl${aliases++}`;
        const rows = db(`${source.table} as ${sub}`).select(db.raw('1'));
        applyFilter(rows, source, node, { db, registry }, sub);
        link.relate(rows, sub, `"${alias}"."id"`);
        qb.whereExists(rows);
      },
    };
  }

  /** NetBox's `TreeNodeFilter` on a relation to a tree: the node, its descendants, children, siblings, ancestors or parent. */
  private async treeNode(field: Field, target: Model, value: { id: string; match_type: TreeMatch }, path: string): Promise<FilterNode> {
    const id = Number(value.id);
    // Ids are PostgreSQL integers.
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw filterError(path, `"${value.id}" is not an id.`);
    const parent = target.fields.find((f) => f.treeParent)!.name;
    const at = (lookup: string, v: unknown, rest: string[] = []) => cmp([field.name, ...rest], lookup, v);
    switch (value.match_type) {
      case 'EXACT':
        return at('exact', id);
      case 'SELF_AND_DESCENDANTS':
        return at('tree', [id]);
      case 'DESCENDANTS':
        return and([at('tree', [id]), not(at('exact', id))]);
      case 'CHILDREN':
        return at('exact', id, [parent]);
    }
    // The others need the node's own ancestors: one small query.
    const { rows } = (await this.s.db.raw(
      `with recursive up(id, parent_id, depth) as (select id, ${parent}_id, 0 from ${target.table} where id = ?
         union all select p.id, p.${parent}_id, up.depth + 1 from ${target.table} p join up on p.id = up.parent_id where up.depth < 100)
       select id, parent_id, depth from up order by depth`,
      [id],
    )) as { rows: { id: number; parent_id: number | null; depth: number }[] };
    const self = rows[0];
    if (!self) return at('in', []);
    if (value.match_type === 'PARENT') return at('in', self.parent_id === null ? [] : [self.parent_id]);
    if (value.match_type === 'ANCESTORS') return at('in', rows.slice(1).map((r) => r.id));
    // Siblings: the same parent, not the node itself.
    return and([self.parent_id === null ? at('isnull', true, [parent]) : at('exact', self.parent_id, [parent]), not(at('exact', id))]);
  }
}
