import type { Knex } from '@mikro-orm/knex';
import type { Request, RequestHandler, Response } from 'express';
import { GraphQLError, getOperationAST } from 'graphql';
import type { HttpSurface } from '../app/surface.js';
import { lazily } from '../base/collections.js';
import type { Settings } from '../config/settings.js';
import { maxPageSize } from '../config/load.js';
import { FilterError } from '../filters/errors.js';
import type { FilterSets } from '../model/filter-sets.js';
import { jsonShapeProblem, type JsonLimits } from '../http/json-shape.js';
import { jsonLimits } from '../http/pipeline.js';
import { baseUrl } from '../http/request.js';
import type { Logger } from '../base/log.js';
import type { ModelRegistry } from '../model/registry.js';
import { isPlainObject } from '../base/values.js';
import type { PluginContext } from '../plugin.js';
import type { DataAccess } from '../plugins/data.js';
import type { Reader } from '../read/reader.js';
import { GraphRequest } from './batch.js';
import { GRAPHIQL_FILES, graphiqlAssets, graphiqlPage, wantsGraphiql } from './graphiql.js';
import type { QueryLimits } from './limits.js';
import type { GraphContext } from './context.js';
import { buildSchema } from './schema.js';
import { DocumentChecker } from './documents.js';
import { QueryRunner } from './execution.js';
import { withEnumHints } from './enum-hints.js';
import { JsonAnswers } from './json-answers.js';

export interface GraphqlDeps {
  settings: Settings;
  registry: ModelRegistry;
  filters: FilterSets;
  reads: Reader;
  db: Knex;
  log: Logger;
  plugins: { ctx: PluginContext }[];
  /** Reads as the user of a request (what plugins' contributed fields resolve with). */
  as(req: Request): DataAccess;
}

const requestError = (res: Response, status: number, message: string) => res.status(status).json({ errors: [{ message }] });

interface Params {
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
}

/**
 * `{query, variables, operationName}` from a POST's JSON body or a GET's query string; a string saying what is wrong
 * otherwise. Variables given as text are bounded as a body is (`shape`) before they are parsed.
 */
function paramsOf(req: Request, shape: JsonLimits): Params | string {
  const source = req.method === 'GET' ? (req.query as Record<string, unknown>) : req.payload;
  if (!isPlainObject(source)) return 'The body must be a JSON object: {"query": "...", "variables": {...}}.';
  const { query, operationName } = source;
  let variables = source.variables;
  if (typeof query !== 'string' || !query.trim()) return 'Must provide query string.';
  if (typeof variables === 'string') {
    const problem = jsonShapeProblem(Buffer.from(variables, 'utf8'), shape);
    if (problem) return `Variables are too large to read: ${problem}.`;
    try {
      variables = JSON.parse(variables);
    } catch {
      return 'Variables are invalid JSON.';
    }
  }
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return 'Variables must be a JSON object.';
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return 'operationName must be a string.';
  return { query, variables: (variables as Record<string, unknown> | null) ?? {}, operationName: operationName ?? undefined };
}

/** What a failed resolver may tell a client: its own errors and bad filters; anything else is logged and masked. */
function answerable(error: GraphQLError): boolean {
  return !error.originalError || error.originalError instanceof GraphQLError || error.originalError instanceof FilterError;
}

/**
 * `/graphql/` (and `/graphql`): POST `{query, variables, operationName}` or GET `?query=`, read-only, with the
 * REST API's tokens, sessions and object permissions; GraphiQL for a browser. Syntax and validation errors and
 * the limits (aliases, depth, estimated cost) are answered before any SQL runs.
 */
export function mountGraphql(surface: HttpSurface, deps: GraphqlDeps): () => void {
  const { settings, log } = deps;
  if (!settings.GRAPHQL_ENABLED) {
    surface.mount('/graphql', (_req, res) => res.status(404).json({ detail: 'The GraphQL API is not enabled.' }));
    return () => undefined;
  }
  const limits: QueryLimits = {
    maxAliases: settings.GRAPHQL_MAX_ALIASES,
    maxDepth: settings.GRAPHQL_MAX_QUERY_DEPTH,
    maxCost: settings.GRAPHQL_MAX_COST,
    rootListSize: maxPageSize(settings) ?? settings.GRAPHQL_MAX_COST,
    assumedListSize: settings.GRAPHQL_ASSUMED_LIST_SIZE,
  };
  // Built on first use (or by `prepare` at start): a process that never answers GraphQL never pays for it.
  const built = lazily(() => {
    const started = performance.now();
    const schema = buildSchema({
      registry: deps.registry,
      filters: deps.filters,
      settings,
      db: deps.db,
      contributions: deps.plugins.flatMap(({ ctx }) => (ctx.plugin.graphql ? [{ plugin: ctx.plugin.name, graphql: ctx.plugin.graphql(ctx) }] : [])),
    });
    log.info(`GraphQL schema: ${Object.keys(schema.schema.getTypeMap()).length} types built in ${Math.round(performance.now() - started)} ms`);
    return { ...schema, runner: new QueryRunner(schema.schema), answers: new JsonAnswers(schema.schema, settings), checker: new DocumentChecker(schema.schema, limits) };
  });

  const shape = jsonLimits(settings);
  const run = async (req: Request, res: Response): Promise<void> => {
    const params = paramsOf(req, shape);
    if (typeof params === 'string') return void requestError(res, 400, params);
    const { filters, runner, answers, checker } = built();
    const variables = { ...params.variables };
    const checked = checker.check(params.query, variables);
    if ('message' in checked) return void requestError(res, 400, checked.message);
    if ('errors' in checked) return void res.status(400).json({ errors: checked.errors });
    const { document } = checked;
    // Read-only: the schema has no mutation or subscription type.
    const operation = getOperationAST(document, params.operationName);
    if (operation && operation.operation !== 'query') return void requestError(res, 400, `Schema is not configured to execute ${operation.operation} operation.`);
    const context: GraphContext = { request: new GraphRequest(deps.reads, req.access, deps.registry, settings, baseUrl(req)), filters, data: deps.as(req) };
    // A statement failing here runs again on the resolvers, which report it at its path.
    const answer = await answers.answer(document, params.operationName, variables, context).catch(() => undefined);
    if (answer !== undefined) return void res.status(200).type('application/json').send(answer);
    const result = await runner.run(params.query, document, params.operationName, variables, context);
    const masked = result.errors?.map((error) => {
      if (answerable(error)) return error;
      // The cause goes to the log under the request id the client is given; never SQL or a stack in the answer.
      log.error(`GraphQL ${req.method} ${req.originalUrl} [${req.requestId}]: ${error.originalError?.stack ?? error.message}`);
      return new GraphQLError('Server error', { path: error.path, extensions: { request_id: req.requestId } });
    });
    // Without `data`, execution never started (a variable of the wrong type): a request error.
    if (!('data' in result)) return void res.status(400).json({ ...result, errors: withEnumHints(runner.schema, masked ?? []) });
    res.status(200).json(masked ? { ...result, errors: masked } : result);
  };

  const endpoint: RequestHandler = (req, res, next) => {
    if (req.path !== '/') return next();
    if (wantsGraphiql(req)) return graphiqlPage(req, res);
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.set('Allow', 'GET, POST');
      return void requestError(res, 405, 'GraphQL only supports GET and POST requests.');
    }
    return run(req, res);
  };
  surface.mount(GRAPHIQL_FILES, graphiqlAssets);
  surface.mount('/graphql', endpoint, { login: true, readOnly: true });
  surface.link({ path: '/graphql/', title: 'GraphiQL', description: 'Write and run GraphQL queries in the browser, the schema at hand.' });
  return () => void built();
}
