import type { Knex } from '@mikro-orm/knex';
import {
  Kind, getArgumentValues, getNamedType, getOperationAST, getVariableValues, isObjectType,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLObjectType, type GraphQLSchema,
} from 'graphql';
import type { Settings } from '../config/settings.js';
import type { Model } from '../model/model.js';
import { orderingWithin } from '../model/walk.js';
import type { GraphContext } from './context.js';
import type { Inline } from './inline.js';
import { pageOf, type ListArgs } from './pagination.js';
import { collect, type Scope } from './prefetch.js';

/** A field's value in SQL on a row alias: its column, made what GraphQL answers. */
export type ValueSql = (alias: string) => string;

/** What a root list field (`<model>_list`) tells its answer: the model, and the columns a selection of it reads. */
export interface RootList {
  model: Model;
  columns(nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>): string[] | undefined;
}

/** An object's JSON in SQL on its row alias, with the bindings of its lists' statements in the text's order. */
interface ObjectSql {
  sql: string;
  bindings: Knex.QueryBuilder[];
}

/** `json_build_object` takes at most 100 arguments. */
const MOST_KEYS = 50;
/** A response key as GraphQL spells names: safe to write into SQL as a literal. */
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Field SQL as knex's raw text: a `?` of its own is no placeholder. */
const literally = (sql: string) => sql.replace(/\?/g, '\\?');

/**
 * Queries PostgreSQL answers alone, in one statement: every root field a list, and every field below either a value
 * its kind writes in SQL or a list read through a column holding its object's id (those the resolvers read with
 * their root list). PostgreSQL builds the JSON, in the lists' orders, and its text is the response: no rows read
 * into objects, resolved and serialized again, which is most of what a list costs the server. The rows are those
 * the resolvers read (the same permissions, filters, pages and orderings), and each kind's SQL gives what its
 * resolver answers (`json-answers.test` compares them). Any other query is left to the resolvers, undefined.
 */
export class JsonAnswers {
  constructor(private readonly schema: GraphQLSchema, private readonly settings: Settings) {}

  /** The response's text, or undefined when the query is not one PostgreSQL answers alone. */
  async answer(document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>, ctx: GraphContext): Promise<string | undefined> {
    const operation = getOperationAST(document, operationName);
    if (operation?.operation !== 'query') return undefined;
    const coerced = getVariableValues(this.schema, operation.variableDefinitions ?? [], variables);
    if (coerced.errors) return undefined;
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    const scope: Scope = { schema: this.schema, variableValues: coerced.coerced, fragments };
    const query = this.schema.getQueryType()!;
    const roots = [...collect(query, [operation.selectionSet], scope)];
    const rootList = ([key, nodes]: [string, FieldNode[]]) => {
      const definition = query.getFields()[nodes[0].name.value];
      return NAME.test(key) && !!definition?.extensions?.list && this.answerable(definition, nodes, scope);
    };
    // Told apart before any work: most other queries ask a field without SQL.
    if (!roots.length || !roots.every(rootList)) return undefined;
    const lists = await Promise.all(roots.map(([, nodes]) => this.rootList(nodes, scope, ctx)));
    if (lists.some((list) => list === undefined)) return undefined;
    const { db } = ctx.request.reads;
    const { rows } = (await db.raw(`select ${lists.map((_, k) => `? as "a${k}"`).join(', ')}`, lists.map((list) => list!.raw))) as { rows: Record<string, string>[] };
    return `{"data":{${roots.map(([key], k) => `"${key}":${rows[0][`a${k}`]}`).join(',')}}}`;
  }

  /** A root list's JSON array as text, read as its resolver reads its rows (boxed: a raw statement is a promise). */
  private async rootList(nodes: FieldNode[], scope: Scope, ctx: GraphContext): Promise<{ raw: Knex.Raw } | undefined> {
    const definition = this.schema.getQueryType()!.getFields()[nodes[0].name.value];
    const list = definition?.extensions?.list as RootList | undefined;
    if (!list) return undefined;
    const page = await listQuery(definition, nodes[0], scope, ctx, list.model, this.settings);
    const object = page && (await this.object(definition, nodes, scope, ctx, 0));
    if (!page || !object) return undefined;
    const { reads, gate } = ctx.request;
    const { qb } = await reads.visible(list.model, gate, page.where, withId(list.columns(nodes, scope.fragments)));
    reads.arrange(qb, list.model, page);
    return { raw: reads.db.raw(`(select coalesce(json_agg(${object.sql}), '[]')::text from ? as x0)`, [...object.bindings, qb]) };
  }

  /** Whether PostgreSQL can answer every field `nodes` select of `field`'s objects, at every level below. */
  private answerable(field: GraphQLField<unknown, unknown>, nodes: FieldNode[], scope: Scope): boolean {
    const type = getNamedType(field.type);
    if (!isObjectType(type)) return false;
    const fields = collect(type, selections(nodes), scope);
    if (!fields.size || fields.size > MOST_KEYS) return false;
    for (const [key, fieldNodes] of fields) {
      const name = fieldNodes[0].name.value;
      const definition = type.getFields()[name];
      if (!NAME.test(key)) return false;
      if (name === '__typename' || definition?.extensions?.sql) continue;
      if (!definition?.extensions?.inline || !this.answerable(definition, fieldNodes, scope)) return false;
    }
    return true;
  }

  /** The JSON of the objects an answerable field (`nodes`, of `field`'s type) selects, on the row alias of `depth`. */
  private async object(field: GraphQLField<unknown, unknown>, nodes: FieldNode[], scope: Scope, ctx: GraphContext, depth: number): Promise<ObjectSql | undefined> {
    const type = getNamedType(field.type) as GraphQLObjectType;
    const alias = `x${depth}`;
    const parts: string[] = [];
    const bindings: Knex.QueryBuilder[] = [];
    for (const [key, fieldNodes] of collect(type, selections(nodes), scope)) {
      const name = fieldNodes[0].name.value;
      if (name === '__typename') {
        parts.push(`'${key}', '${type.name}'::text`);
        continue;
      }
      const definition = type.getFields()[name];
      const value = definition.extensions.sql as ValueSql | undefined;
      if (value) {
        parts.push(`'${key}', ${literally(value(alias))}`);
        continue;
      }
      // Undefined when its filters or page are refused: the resolvers report it.
      const list = await this.list(definition, fieldNodes, scope, ctx, depth + 1);
      if (!list) return undefined;
      parts.push(`'${key}', ${list.sql}`);
      bindings.push(...list.bindings);
    }
    return { sql: `json_build_object(${parts.join(', ')})`, bindings };
  }

  /** The JSON array of a list field of the objects at `depth - 1`, read as the resolvers read it with their root. */
  private async list(definition: GraphQLField<unknown, unknown>, nodes: FieldNode[], scope: Scope, ctx: GraphContext, depth: number): Promise<ObjectSql | undefined> {
    const inline = definition.extensions.inline as Inline;
    const read = await inline(getArgumentValues(definition, nodes[0], scope.variableValues), ctx, nodes, scope.fragments).catch(() => undefined);
    const object = read && (await this.object(definition, nodes, scope, ctx, depth));
    if (!read || !object) return undefined;
    const { reads, gate } = ctx.request;
    const { target, relate, query } = read;
    const { qb } = await reads.visible(target, gate, query.where, withId(read.columns));
    relate(qb, 't', `x${depth - 1}.id`);
    reads.arrange(qb, target, { ...query, ordering: orderingWithin(target, relate) });
    return { sql: `(select coalesce(json_agg(${object.sql}), '[]') from ? as x${depth})`, bindings: [...object.bindings, qb] };
  }
}

const selections = (nodes: readonly FieldNode[]) => nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));

/** The columns to read, with the id the lists below relate to (every column when undefined). */
function withId(columns: string[] | undefined): string[] | undefined {
  return columns && !columns.includes('id') ? [...columns, 'id'] : columns;
}

/** A root list's filters and page from its arguments; undefined when they are refused (the resolver reports it). */
async function listQuery(definition: GraphQLField<unknown, unknown>, node: FieldNode, scope: Scope, ctx: GraphContext, model: Model, settings: Settings) {
  try {
    const args = getArgumentValues(definition, node, scope.variableValues) as ListArgs;
    return { where: await ctx.filters.compile(model, args.filters, ctx.request), ...pageOf(args.pagination, settings) };
  } catch {
    return undefined;
  }
}
