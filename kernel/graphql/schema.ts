import type { Knex } from '@mikro-orm/knex';
import { GraphQLError, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { SchemaComposer } from 'graphql-compose';
import type { Settings } from '../config/settings.js';
import type { FilterSets } from '../model/filter-sets.js';
import type { ModelRegistry } from '../model/registry.js';
import { graphqlModels, graphqlTypeNames } from '../model/graphql-names.js';
import { offeredLists } from '../model/offered-lists.js';
import type { Batch, ObjectNode } from './batch.js';
import type { GraphContext } from './context.js';
import type { GraphqlContribution } from './contribution.js';
import { Enums } from './enums.js';
import { FilterInputs } from './filters.js';
import { PAGINATION_INPUT, pageOf, type ListArgs } from './pagination.js';
import { inlineLists, prefetch } from './prefetch.js';
import { BigIntScalar, DateScalar, DateTimeScalar, DecimalScalar, FilterValuesScalar, JSONScalar } from './scalars.js';
import { ObjectTypes } from './types.js';
import type { RootList } from './json-answers.js';

export interface SchemaSources {
  registry: ModelRegistry;
  filters: FilterSets;
  settings: Settings;
  db: Knex;
  /** What each plugin adds (fields on types, filters, type definitions), by plugin name. */
  contributions: { plugin: string; graphql: GraphqlContribution }[];
}

/** `IPAddress` → `ip_address`, NetBox's root field names. */
const snake = (name: string): string =>
  name.replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();


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

  const models = graphqlModels(registry);
  const types = graphqlTypeNames(models);
  const offered = offeredLists(models, registry);
  const filters = new FilterInputs({
    composer: composer as SchemaComposer<unknown>,
    registry,
    filters: sources.filters,
    enums,
    db: sources.db,
    typeOf: (model) => types.get(model.key),
    backLinks: (model) => offered.get(model.key) ?? [],
    contributions: sources.contributions.flatMap((c) => c.graphql.filters ?? []),
  });
  composer.createInputTC(PAGINATION_INPUT);
  const extensions = sources.contributions.flatMap((c) => c.graphql.fields ?? []);
  // What plugins' fields read of a model's rows: anything, so a selection holding one reads whole rows.
  const rowReaders = new Map<string, Set<string>>();
  for (const extension of extensions) rowReaders.set(extension.model.key, (rowReaders.get(extension.model.key) ?? new Set()).add(extension.name));
  const objects = new ObjectTypes({ composer, registry, settings, filters, enums, types, offered, rowReaders });

  for (const model of models) composer.createObjectTC({ name: types.get(model.key)!, description: `${model.title} (${model.key})`, fields: {} });
  for (const model of models) composer.getOTC(types.get(model.key)!).addFields(objects.fields(model));
  for (const extension of extensions) {
    const type = types.get(extension.model.key);
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

  const typeOfBatch = (batch: Batch) => types.get(batch.model.key)!;
  for (const model of models) {
    const type = types.get(model.key)!;
    const name = snake(model.className);
    composer.Query.addFields({
      [name]: {
        type,
        args: { id: 'ID!' },
        resolve: async (_root: unknown, args: { id: string }, ctx: GraphContext, info: GraphQLResolveInfo) => {
          const id = /^\d{1,10}$/.test(args.id) ? Number(args.id) : NaN;
          const batch = Number.isSafeInteger(id) ? await ctx.request.one(model, id, objects.columnsOf(info.fieldNodes, info.fragments)(model)) : undefined;
          if (!batch?.nodes.length) throw new GraphQLError(`${model.className} matching query does not exist.`);
          await prefetch([batch], info.fieldNodes, info, ctx, typeOfBatch);
          return batch.nodes[0];
        },
      },
      [`${name}_list`]: {
        type: `[${type}!]!`,
        args: objects.listArgs(model),
        extensions: { list: { model, columns: (nodes, fragments) => objects.columnsOf(nodes, fragments)(model) } satisfies RootList },
        resolve: async (_root: unknown, args: ListArgs, ctx: GraphContext, info: GraphQLResolveInfo) => {
          const where = await ctx.filters.compile(model, args.filters, ctx.request);
          const columns = objects.columnsOf(info.fieldNodes, info.fragments)(model);
          // The lists of the objects read with them need the objects' ids.
          const inlines = columns?.includes('id') !== false ? await inlineLists(info.schema.getType(types.get(model.key)!) as GraphQLObjectType, info.fieldNodes, info, ctx) : [];
          const batch = await ctx.request.list(model, { where, ...pageOf(args.pagination, settings), columns }, inlines);
          await prefetch([batch], info.fieldNodes, info, ctx, typeOfBatch);
          return batch.nodes;
        },
      },
    });
  }
  const schema = composer.buildSchema();
  return { schema, filters };
}
