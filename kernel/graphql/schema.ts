import type { Knex } from '@mikro-orm/knex';
import { GraphQLError, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { SchemaComposer, type ObjectTypeComposerFieldConfigAsObjectDefinition } from 'graphql-compose';
import type { Settings } from '../config/settings.js';
import { maxPageSize } from '../config/load.js';
import type { FilterSets } from '../filters/filterset.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { DataAccess } from '../plugins/data.js';
import type { Walk } from '../model/walk.js';
import { INT_MAX } from '../model/values.js';
import type { Batch, Columns, GraphRequest, ListQuery, Loaded, ObjectNode } from './batch.js';
import { prefetch, type Prefetch } from './prefetch.js';
import { columnsFor, selectedNames } from './selection.js';
import type { GraphqlContribution } from './contribution.js';
import { Enums, pascal } from './enums.js';
import { FilterInputs, type BackLink } from './filters.js';
import { scalarOutput } from './outputs.js';
import { BigIntScalar, DateScalar, DateTimeScalar, DecimalScalar, FilterValuesScalar, JSONScalar, pluginScalar } from './scalars.js';

/** What resolvers receive: the request's reader and the schema's filter compiler. */
export interface GraphContext {
  request: GraphRequest;
  filters: FilterInputs;
  /** The same reader as plugins' routes get (`ctx.as(req)`), for the fields plugins contribute. */
  data: DataAccess;
}

type Resolved = ObjectTypeComposerFieldConfigAsObjectDefinition<ObjectNode, GraphContext>;

export interface SchemaSources {
  registry: ModelRegistry;
  filters: FilterSets;
  settings: Settings;
  db: Knex;
  /** What each plugin adds (fields on types, filters, type definitions), by plugin name. */
  contributions: { plugin: string; graphql: GraphqlContribution }[];
}

/** `IPAddress` → `ip_address`, NetBox's root field names. */
export const snake = (name: string): string =>
  name.replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** A list's arguments. */
interface ListArgs {
  filters?: unknown;
  pagination?: Pagination;
}

interface Pagination {
  offset?: number | null;
  limit?: number | null;
  start?: number | null;
}

/**
 * A list's page: without `pagination`, every row up to MAX_PAGE_SIZE (NetBox 4.5); with it, `limit` defaults to
 * 100, and `start` pages by id from there on (not with `offset`).
 */
export function pageOf(pagination: Pagination | null | undefined, settings: Settings): Omit<ListQuery, 'where'> {
  const max = maxPageSize(settings);
  if (!pagination) return { limit: max };
  const { offset, limit, start } = pagination;
  for (const [name, value] of Object.entries({ offset, limit, start })) {
    if (value !== null && value !== undefined && (value < 0 || value > INT_MAX)) throw new GraphQLError(`pagination.${name}: must be a whole number from 0 to ${INT_MAX}.`);
  }
  if (start !== null && start !== undefined && offset) throw new GraphQLError('pagination: start (cursor) cannot be combined with offset.');
  const wanted = limit ?? 100;
  return {
    limit: max === null ? wanted : Math.min(wanted, max),
    offset: offset ?? 0,
    start: start ?? undefined,
  };
}

/**
 * The read-only GraphQL schema, assembled once at start from every plugin's model declarations (third-party
 * ones too): for each model a type named as NetBox names it, `<model>(id:)` and `<model>_list(filters:,
 * pagination:)` root fields, every field its kinds describe (relations as nested types, lists and unions), the
 * lists other models' relations offer on it, and what plugins contribute. There is no mutation type.
 */
export function buildSchema(sources: SchemaSources): { schema: GraphQLSchema; filters: FilterInputs } {
  const { registry, settings } = sources;
  const composer = new SchemaComposer<GraphContext>();
  for (const scalar of [JSONScalar, BigIntScalar, DecimalScalar, DateTimeScalar, DateScalar, FilterValuesScalar]) composer.add(scalar);
  for (const { graphql } of sources.contributions) if (graphql.typeDefs) composer.addTypeDefs(graphql.typeDefs);
  const enums = new Enums(composer as SchemaComposer<unknown>);

  const models = registry.all().filter((m) => m.served && m.decl.graphql !== false);
  const named = new Map<string, Model>();
  for (const model of models) {
    const other = named.get(model.className);
    if (other) throw new Error(`${model.key} and ${other.key} are both called ${model.className} in GraphQL: declare the className of one`);
    named.set(model.className, model);
  }
  const typeOf = (model: Model) => (models.includes(model) ? `${model.className}Type` : undefined);
  const typeOfBatch = (batch: Batch) => typeOf(batch.model)!;
  // The lists relations offer on their targets (`devices` on a site), by target.
  const backLinks = new Map<string, { source: Model; link: BackLink }[]>();
  for (const source of models) {
    for (const field of [...source.fields, ...registry.contributedFields(source)]) {
      const name = field.related;
      if (!name) continue;
      for (const target of models) {
        const relate = field.referring(target, registry);
        if (!relate) continue;
        const links = backLinks.get(target.key) ?? [];
        const clash = links.find((l) => l.link.name === name);
        if (clash) throw new Error(`${target.key}: ${source.key}.${field.name} and ${clash.source.key} both offer the list "${name}"; rename one's \`related\``);
        backLinks.set(target.key, [...links, { source, link: { name, relate } }]);
      }
    }
  }
  const filters = new FilterInputs({
    composer: composer as SchemaComposer<unknown>,
    registry,
    filters: sources.filters,
    enums,
    db: sources.db,
    typeOf,
    backLinks: (model) => backLinks.get(model.key) ?? [],
    contributions: sources.contributions.flatMap((c) => c.graphql.filters ?? []),
  });
  composer.createInputTC({
    name: 'OffsetPaginationInput',
    fields: { offset: { type: 'Int', defaultValue: 0 }, limit: 'Int', start: { type: 'Int', description: 'Cursor: the objects from this id on, by id.' } },
  });

  const unions = new Map<string, string[]>();
  /** The union of several models' types, made once by name (an IP's assignment, a cable's terminations). */
  const union = (name: string, targets: Model[]): string => {
    const members = targets.map((t) => typeOf(t)!);
    const known = unions.get(name);
    if (known && known.join() !== members.join()) throw new Error(`GraphQL union ${name} is declared with different members: ${known.join(', ')} and ${members.join(', ')}`);
    if (!known) {
      unions.set(name, members);
      composer.createUnionTC({ name, types: members, resolveType: (node: ObjectNode) => typeOf(node.batch.model) });
    }
    return name;
  };

  // What plugins' fields read of a model's rows: anything, so a selection holding one reads whole rows.
  const rowReaders = new Map<string, Set<string>>();
  for (const { graphql } of sources.contributions) {
    for (const extension of graphql.fields ?? []) rowReaders.set(extension.model.key, (rowReaders.get(extension.model.key) ?? new Set()).add(extension.name));
  }
  /** The columns a field's selection reads of each model (worked out once, when asked). */
  const columnsOf = (nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>): Columns => {
    let names: Set<string> | undefined;
    return (model) => columnsFor(model, (names ??= selectedNames(nodes, fragments)), registry, rowReaders.get(model.key) ?? new Set());
  };

  const listArgs = (target: Model) => ({ filters: filters.inputName(target), pagination: 'OffsetPaginationInput' });

  /**
   * The field of a relation key: a nested object, a list with its own filters and pages, or a union. It loads for
   * the whole batch of its object, once per field of the query (its first node), ahead of time (prefetch) or when
   * the first object asks.
   */
  const relation = (model: Model, key: string, walk: Walk, description?: string): Resolved | undefined => {
    const targets = walk.targets.map((k) => registry.find(k)).filter((m): m is Model => !!m && !!typeOf(m));
    if (!targets.length) return undefined;
    const single = targets.length === 1 && !walk.union;
    const type = single ? typeOf(targets[0])! : union(walk.union ?? `${model.className}${pascal(key)}Type`, targets);
    const listed = walk.relate && single;
    const load = async (batch: Batch, args: ListArgs, ctx: GraphContext, columns: Columns): Promise<Loaded> => {
      if (!listed) return batch.referenced(walk, columns);
      const query = { where: await ctx.filters.compile(targets[0], args.filters, ctx.request), ...(walk.many ? pageOf(args.pagination, settings) : { limit: 1 }) };
      const lists = await batch.listed(targets[0], walk.relate!, query, columns);
      // A reverse one-to-one: the first of the list, or none.
      return walk.many ? lists : { batches: lists.batches, of: (node) => (lists.of(node) as ObjectNode[])[0] ?? null };
    };
    const prefetch: Prefetch = (batch, args, ctx, nodes, fragments) => batch.load(nodes[0], () => load(batch, args, ctx, columnsOf(nodes, fragments)));
    const resolve = (node: ObjectNode, args: ListArgs, ctx: GraphContext, info: GraphQLResolveInfo) =>
      node.batch.related(info.fieldNodes[0], node, () => load(node.batch, args, ctx, columnsOf(info.fieldNodes, info.fragments)));
    return {
      type: walk.many ? `[${type}!]!` : type,
      description,
      args: listed && walk.many ? listArgs(targets[0]) : undefined,
      resolve,
      extensions: { prefetch },
    };
  };

  const objectFields = (model: Model): Record<string, Resolved> => {
    const fields: Record<string, Resolved> = {};
    for (const field of registry.outputFields(model, 'full')) {
      for (const p of field.describe(registry)) {
        if (p.writeOnly || p.key in fields) continue;
        const walk = field.walk(p.key, registry);
        if (walk) {
          const resolved = relation(model, p.key, walk, p.helpText);
          if (resolved) fields[p.key] = resolved;
          continue;
        }
        // A computed choice (an address's family) reads as `{value, label}`, as in NetBox.
        const output = p.readOnly && p.choices && p.labelled ? { type: enums.labelledType(model, p), convert: (v: unknown) => v } : scalarOutput(p);
        // A field kind's own scalar (a plugin's `SemVer`), made on first use.
        const own = p.scalar ?? p.items?.scalar;
        if (own && own !== 'ID' && !composer.has(own)) composer.add(pluginScalar(own));
        const { key } = p;
        fields[key] = {
          type: output.type,
          description: p.helpText,
          resolve: (node) => node.batch.value(field, key, node, output.convert),
          extensions: { prefetch: ((batch) => batch.prepare(field, key, output.convert)) satisfies Prefetch },
        };
      }
    }
    fields.class_type = { type: 'String!', description: 'The class of the object (`IPAddress`).', resolve: () => model.className };
    for (const { source, link } of backLinks.get(model.key) ?? []) {
      if (link.name in fields) continue;
      fields[link.name] = relation(model, link.name, { targets: [source.key], many: true, relate: link.relate }, `The ${source.verboseNamePlural} of this ${model.verboseName}.`)!;
    }
    return fields;
  };

  for (const model of models) composer.createObjectTC({ name: typeOf(model)!, description: `${model.title} (${model.key})`, fields: {} });
  for (const model of models) composer.getOTC(typeOf(model)!).addFields(objectFields(model));
  for (const { graphql } of sources.contributions) {
    for (const extension of graphql.fields ?? []) {
      const type = typeOf(extension.model);
      if (!type) throw new Error(`GraphQL field ${extension.name}: ${extension.model.key} is not in the GraphQL schema`);
      composer.getOTC(type).addFields({
        [extension.name]: {
          type: extension.type,
          description: extension.description,
          args: extension.args,
          resolve: (node: ObjectNode, args: Record<string, unknown>, ctx: GraphContext) => extension.resolve(node.row, args, ctx.data),
        },
      });
    }
  }

  for (const model of models) {
    const type = typeOf(model)!;
    const name = snake(model.className);
    composer.Query.addFields({
      [name]: {
        type,
        args: { id: 'ID!' },
        resolve: async (_root: unknown, args: { id: string }, ctx: GraphContext, info: GraphQLResolveInfo) => {
          const id = /^\d{1,10}$/.test(args.id) ? Number(args.id) : NaN;
          const batch = Number.isSafeInteger(id) ? await ctx.request.one(model, id, columnsOf(info.fieldNodes, info.fragments)(model)) : undefined;
          if (!batch?.nodes.length) throw new GraphQLError(`${model.className} matching query does not exist.`);
          await prefetch([batch], info.fieldNodes, info, ctx, typeOfBatch);
          return batch.nodes[0];
        },
      },
      [`${name}_list`]: {
        type: `[${type}!]!`,
        args: listArgs(model),
        resolve: async (_root: unknown, args: ListArgs, ctx: GraphContext, info: GraphQLResolveInfo) => {
          const where = await ctx.filters.compile(model, args.filters, ctx.request);
          const batch = await ctx.request.list(model, { where, ...pageOf(args.pagination, settings), columns: columnsOf(info.fieldNodes, info.fragments)(model) });
          await prefetch([batch], info.fieldNodes, info, ctx, typeOfBatch);
          return batch.nodes;
        },
      },
    });
  }
  const schema = composer.buildSchema();
  return { schema, filters };
}
