import type { FieldNode, FragmentDefinitionNode, GraphQLResolveInfo } from 'graphql';
import type { ObjectTypeComposerFieldConfigAsObjectDefinition, SchemaComposer } from 'graphql-compose';
import type { Settings } from '../config/settings.js';
import type { Field } from '../model/field.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Walk } from '../model/walk.js';
import type { OfferedList } from '../model/offered-lists.js';
import type { Batch, Columns, Loaded, ObjectNode } from './batch.js';
import { pascal, type Enums } from './enums.js';
import type { FilterInputs } from './filters.js';
import { scalarOutput } from './outputs.js';
import { pageOf, type ListArgs } from './pagination.js';
import type { Prefetch } from './prefetch.js';
import type { Inline } from './inline.js';
import type { ValueSql } from './json-answers.js';
import { pluginScalar } from './scalars.js';
import type { GraphContext } from './context.js';
import { columnsFor, selectedNames } from './selection.js';

type Resolved = ObjectTypeComposerFieldConfigAsObjectDefinition<ObjectNode, GraphContext>;

export interface TypeSources {
  composer: SchemaComposer<GraphContext>;
  registry: ModelRegistry;
  settings: Settings;
  filters: FilterInputs;
  enums: Enums;
  /** The models in the schema, by key, with their types' names. */
  types: ReadonlyMap<string, string>;
  offered: ReadonlyMap<string, OfferedList[]>;
  /** Fields plugins contribute, by model key: they read the whole row. */
  rowReaders: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * The object types of the models: each described key of each field (scalars as NetBox renders them, relations
 * through the field's walk), `class_type`, and the lists other models' relations offer. Every field loads for a
 * whole batch of objects, ahead of GraphQL's resolution (prefetch) or when the first object asks.
 */
export class ObjectTypes {
  private readonly unions = new Map<string, string[]>();

  constructor(private readonly s: TypeSources) {}

  typeOf(model: Model): string | undefined {
    return this.s.types.get(model.key);
  }

  /** The columns a field's selection reads of each model (worked out once, when asked). */
  columnsOf(nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>): Columns {
    let names: Set<string> | undefined;
    return (model) => columnsFor(model, (names ??= selectedNames(nodes, fragments)), this.s.registry, this.s.rowReaders.get(model.key) ?? new Set());
  }

  listArgs(target: Model): Record<string, string> {
    return { filters: this.s.filters.inputName(target), pagination: 'OffsetPaginationInput' };
  }

  /** Every field of a model's type. */
  fields(model: Model): Record<string, Resolved> {
    const { registry } = this.s;
    const fields: Record<string, Resolved> = {};
    for (const field of registry.outputFields(model, 'full')) {
      for (const p of field.describe(registry)) {
        if (p.writeOnly || p.key in fields) continue;
        const walk = field.walk(p.key, registry);
        const resolved = walk ? this.relation(model, p.key, walk, p.helpText) : this.value(model, field, p);
        if (resolved) fields[p.key] = resolved;
      }
    }
    fields.class_type = { type: 'String!', description: 'The class of the object (`IPAddress`).', resolve: () => model.className };
    for (const { source, link } of this.s.offered.get(model.key) ?? []) {
      if (link.name in fields) continue;
      fields[link.name] = this.relation(model, link.name, { targets: [source.key], many: true, relate: link.relate }, `The ${source.verboseNamePlural} of this ${model.verboseName}.`)!;
    }
    return fields;
  }

  /** A key that names no object: its value as REST renders it, made GraphQL's. */
  private value(model: Model, field: Field, p: ReturnType<Field['describe']>[number]): Resolved {
    // A computed choice (an address's family) reads as `{value, label}`, as in NetBox.
    const output = p.readOnly && p.choices && p.labelled ? { type: this.s.enums.labelledType(model, p), convert: (v: unknown) => v } : scalarOutput(p);
    // A field kind's own scalar (a plugin's `SemVer`), made on first use.
    const own = p.scalar ?? p.items?.scalar;
    if (own && own !== 'ID' && !this.s.composer.has(own)) this.s.composer.add(pluginScalar(own));
    const { key } = p;
    const prefetch: Prefetch = (batch) => batch.prepare(field, key, output.convert);
    const rest = output.sql && field.jsonSql(key, '$');
    // The value in SQL, on a row alias: what lets PostgreSQL answer a list holding it (`JsonAnswers`).
    const sql: ValueSql | undefined = rest ? (alias) => output.sql!(field.jsonSql(key, alias)!) : undefined;
    return { type: output.type, description: p.helpText, resolve: (node) => node.batch.value(field, key, node, output.convert), extensions: { prefetch, sql } };
  }

  /** The union of several models' types, made once by name (an IP's assignment, a cable's terminations). */
  private union(name: string, targets: Model[]): string {
    const members = targets.map((t) => this.typeOf(t)!);
    const known = this.unions.get(name);
    if (known && known.join() !== members.join()) throw new Error(`GraphQL union ${name} is declared with different members: ${known.join(', ')} and ${members.join(', ')}`);
    if (!known) {
      this.unions.set(name, members);
      this.s.composer.createUnionTC({ name, types: members, resolveType: (node: ObjectNode) => this.typeOf(node.batch.model) });
    }
    return name;
  }

  /**
   * The field of a relation key: a nested object, a list with its own filters and pages, or a union. It loads for
   * the whole batch of its object, once per field of the query (its first node).
   */
  private relation(model: Model, key: string, walk: Walk, description?: string): Resolved | undefined {
    const { registry, settings } = this.s;
    const targets = walk.targets.map((k) => registry.find(k)).filter((m): m is Model => !!m && !!this.typeOf(m));
    if (!targets.length) return undefined;
    const single = targets.length === 1 && !walk.union;
    const type = single ? this.typeOf(targets[0])! : this.union(walk.union ?? `${model.className}${pascal(key)}Type`, targets);
    const listed = walk.relate && single;
    /** The list's rows for each object: its filters, and its page (a reverse one-to-one's first row). */
    const queryOf = async (args: ListArgs, ctx: GraphContext) =>
      ({ where: await ctx.filters.compile(targets[0], args.filters, ctx.request), ...(walk.many ? pageOf(args.pagination, settings) : { limit: 1 }) });
    const load = async (batch: Batch, args: ListArgs, ctx: GraphContext, columns: Columns): Promise<Loaded> => {
      if (!listed) return batch.referenced(walk, columns);
      const lists = await batch.listed(targets[0], walk.relate!, await queryOf(args, ctx), columns);
      // A reverse one-to-one: the first of the list, or none.
      return walk.many ? lists : { batches: lists.batches, of: (node) => (lists.of(node) as ObjectNode[])[0] ?? null };
    };
    const prefetch: Prefetch = (batch, args, ctx, nodes, fragments) => batch.load(nodes[0], () => load(batch, args, ctx, this.columnsOf(nodes, fragments)));
    const { relate } = walk;
    // A list through a column holding the object's id, whose selection names its columns, can be read with its root.
    const inline: Inline | undefined = listed && walk.many && relate?.via ? async (args, ctx, nodes, fragments) => {
      const columns = this.columnsOf(nodes, fragments)(targets[0]);
      if (!columns) return undefined;
      return { signature: nodes[0], target: targets[0], relate, query: await queryOf(args as ListArgs, ctx), columns };
    } : undefined;
    return {
      type: walk.many ? `[${type}!]!` : type,
      description,
      args: listed && walk.many ? this.listArgs(targets[0]) : undefined,
      resolve: (node: ObjectNode, args: ListArgs, ctx: GraphContext, info: GraphQLResolveInfo) =>
        node.batch.related(info.fieldNodes[0], node, () => load(node.batch, args, ctx, this.columnsOf(info.fieldNodes, info.fragments))),
      extensions: { prefetch, inline },
    };
  }
}
