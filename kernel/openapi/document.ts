import { appendTo } from '../base/collections.js';
import type { FilterSets } from '../model/filter-sets.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { hasApiRoot } from '../model/paths.js';
import type { Plugin } from '../plugin.js';
import { API_VERSION, PATCHBAY_VERSION } from '../base/version.js';
import { REDOC_PATH, SWAGGER_UI_PATH } from './pages.js';
import { LIST_PARAMETERS, filterParameters } from './parameters.js';
import { componentNames, objectSchema, ref, requestSchema } from './schemas.js';
import type { RecordedRoute, RouteOperation } from './routes.js';
import type { OperationObject, ParameterObject, PathItem, SchemaObject } from './types.js';

export interface OpenApiDocument {
  openapi: '3.0.3';
  info: { title: string; version: string; description: string };
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, SchemaObject>;
    securitySchemes: Record<string, { type: 'apiKey'; in: 'header'; name: string; description: string }>;
    headers: Record<string, { description: string; schema: SchemaObject }>;
    responses: Record<string, { description: string; content: Record<string, { schema: SchemaObject }> }>;
  };
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
}

const json = (schema: SchemaObject) => ({ 'application/json': { schema } });
const HEADERS = { 'API-Version': { $ref: '#/components/headers/API-Version' }, 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } };
const ok = (description: string, schema?: SchemaObject) => ({ description, headers: HEADERS, ...(schema ? { content: json(schema) } : {}) });
const ERRORS: OperationObject['responses'] = {
  '400': { $ref: '#/components/responses/ValidationError' },
  '403': { $ref: '#/components/responses/Error' },
  '404': { $ref: '#/components/responses/Error' },
};
/** An operation id stem from a path: `/api/dcim/racks/{id}/elevation/` → `dcim_racks_id_elevation`. */
const slug = (path: string) => path.replace(/^\/api\//, '').replace(/[{}]/g, '').replace(/[^a-z0-9]+/gi, '_').replace(/_$/, '');

const ID: ParameterObject = { name: 'id', in: 'path', required: true, schema: { type: 'integer' }, description: 'The object\'s id.' };

/** The operations of one model's list and detail paths, with its component schemas. */
function modelPaths(
  model: Model, registry: ModelRegistry, filters: FilterSets, names: Map<string, string>, tag: string, schemas: Record<string, SchemaObject>, alias?: string,
): Record<string, PathItem> {
  const name = names.get(model.key)!;
  const ctx = { registry, names };
  schemas[name] = objectSchema(model, ctx, 'full');
  schemas[`Brief${name}`] = objectSchema(model, ctx, 'brief');
  schemas[`Nested${name}`] = objectSchema(model, ctx, 'nested');
  schemas[`Paginated${name}List`] = {
    type: 'object',
    properties: {
      count: { type: 'integer', nullable: true }, next: { type: 'string', format: 'uri', nullable: true }, previous: { type: 'string', format: 'uri', nullable: true },
      results: { type: 'array', items: { anyOf: [ref(name), ref(`Brief${name}`)] } },
    },
    required: ['count', 'next', 'previous', 'results'],
  };
  const path = alias ?? registry.apiPath(model);
  const id = slug(path);
  const op = (suffix: string, summary: string, rest: Omit<OperationObject, 'operationId' | 'tags' | 'summary'>): OperationObject => ({ operationId: `${id}_${suffix}`, summary, tags: [tag], ...rest });
  const list: PathItem = {
    get: op('list', `List ${model.verboseNamePlural}`, {
      parameters: [...LIST_PARAMETERS, ...filterParameters(model, filters.of(model), registry)],
      responses: { '200': ok('A page of objects', ref(`Paginated${name}List`)), ...ERRORS },
    }),
  };
  const detail: PathItem = {
    parameters: [ID],
    get: op('retrieve', `One ${model.verboseName}`, { responses: { '200': ok('The object', ref(name)), ...ERRORS } }),
  };
  if (!model.decl.readOnly) {
    schemas[`${name}Request`] = requestSchema(model, registry, false);
    schemas[`Patched${name}Request`] = requestSchema(model, registry, true);
    const withId = (schema: string): SchemaObject => ({ type: 'array', items: { allOf: [ref(schema), { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }] } });
    const body = (schema: SchemaObject) => ({ required: true, content: json(schema) });
    list.post = op('create', `Create one ${model.verboseName} or several`, {
      requestBody: body({ oneOf: [ref(`${name}Request`), { type: 'array', items: ref(`${name}Request`) }] }),
      responses: { '201': ok('The created object(s)', { oneOf: [ref(name), { type: 'array', items: ref(name) }] }), ...ERRORS },
    });
    list.put = op('bulk_update', `Replace ${model.verboseNamePlural}`, { requestBody: body(withId(`${name}Request`)), responses: { '200': ok('The objects', { type: 'array', items: ref(name) }), ...ERRORS } });
    list.patch = op('bulk_partial_update', `Change ${model.verboseNamePlural}`, { requestBody: body(withId(`Patched${name}Request`)), responses: { '200': ok('The objects', { type: 'array', items: ref(name) }), ...ERRORS } });
    list.delete = op('bulk_destroy', `Delete ${model.verboseNamePlural}`, {
      requestBody: body({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }),
      responses: { '204': { description: 'Deleted', headers: HEADERS }, ...ERRORS, '409': { $ref: '#/components/responses/Error' } },
    });
    detail.put = op('update', `Replace one ${model.verboseName}`, { requestBody: body(ref(`${name}Request`)), responses: { '200': ok('The object', ref(name)), ...ERRORS } });
    detail.patch = op('partial_update', `Change one ${model.verboseName}`, { requestBody: body(ref(`Patched${name}Request`)), responses: { '200': ok('The object', ref(name)), ...ERRORS } });
    detail.delete = op('destroy', `Delete one ${model.verboseName}`, {
      responses: { '204': { description: 'Deleted', headers: HEADERS }, ...ERRORS, '409': { $ref: '#/components/responses/Error' } },
    });
  }
  return { [path]: list, [`${path}{id}/`]: detail };
}

/** An extra route: its method, its full path (`{id}` for parameters), what its plugin says of it. */
interface ExtraRoute {
  method: string;
  full: string;
  doc?: RouteOperation;
}

/** A plugin's extra routes, with what its `operations` say of each. */
function pluginRoutes(plugin: Plugin, routes: RecordedRoute[]): ExtraRoute[] {
  return routes.map(({ method, path }) => {
    const relative = path.replace(/:(\w+)/g, '{$1}');
    return { method, full: `${plugin.basePath}${relative.replace(/^\//, '')}`, doc: plugin.operations?.[`${method.toUpperCase()} ${relative}`] };
  });
}

/** The operations of extra routes (under `tag`): what their plugin says of them, else a plain JSON answer. */
function routePaths(tag: string, routes: ExtraRoute[]): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {};
  for (const { method, full, doc } of routes) {
    const pathParameters: ParameterObject[] = [...full.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: name === 'id' ? 'integer' : 'string' } }));
    const responses: OperationObject['responses'] = {};
    for (const [status, r] of Object.entries(doc?.responses ?? { '200': { description: 'OK', schema: { type: 'object', additionalProperties: true } } })) {
      responses[status] = r.schema ? ok(r.description, r.schema) : { description: r.description, headers: HEADERS };
    }
    const operation: OperationObject = {
      operationId: `${slug(full)}_${method}`,
      summary: doc?.summary ?? `${method.toUpperCase()} ${full}`,
      ...(doc?.description ? { description: doc.description } : {}),
      tags: [tag],
      ...(doc?.public ? { security: [{}] } : {}),
      parameters: [...pathParameters, ...(doc?.parameters ?? [])],
      ...(doc?.requestBody ? { requestBody: { required: true, content: json(doc.requestBody) } } : {}),
      responses: { ...responses, ...ERRORS },
    };
    paths[full] = { ...paths[full], [method]: operation };
  }
  return paths;
}

const htmlPage = (operationId: string, summary: string): PathItem => ({
  get: { operationId, summary, tags: ['api'], responses: { '200': { description: summary, headers: HEADERS, content: { 'text/html': { schema: { type: 'string' } } } } } },
});

/** The kernel's own paths: the API roots, the status, this document and its pages. */
function kernelPaths(plugins: Plugin[]): Record<string, PathItem> {
  const index = (operationId: string, summary: string): PathItem => ({
    get: { operationId, summary, tags: ['api'], responses: { '200': ok(summary, { type: 'object', additionalProperties: { type: 'string', format: 'uri' } }) } },
  });
  const paths: Record<string, PathItem> = {
    '/api/': { get: { ...index('api_root', 'The apps and their roots').get!, security: [{}, { tokenAuth: [] }] } },
    '/api/plugins/': index('api_plugins', 'The installed plugins and the enabled third-party plugins'),
    '/api/plugins/installed-plugins/': {
      get: {
        operationId: 'api_plugins_installed_plugins', summary: 'The installed third-party plugins (staff only)', tags: ['api'],
        responses: {
          '200': ok('Installed plugins', {
            type: 'array',
            items: {
              type: 'object',
              properties: Object.fromEntries(['name', 'package', 'author', 'author_email', 'description', 'version', 'release_track'].map((k) => [k, { type: 'string' }])),
            },
          }),
        },
      },
    },
    '/api/status/': {
      get: { operationId: 'api_status', summary: 'Versions, installed apps and plugins, and the state of the database and queue', tags: ['api'], responses: { '200': ok('Status', { type: 'object', additionalProperties: true }) } },
    },
    '/api/schema/': {
      get: {
        operationId: 'api_schema', summary: 'This document (YAML; JSON with ?format=json)', tags: ['api'],
        parameters: [{ name: 'format', in: 'query', schema: { type: 'string', enum: ['json', 'yaml'] } }],
        responses: { '200': { description: 'The OpenAPI document', headers: HEADERS, content: { 'application/vnd.oai.openapi': { schema: { type: 'object' } }, 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    [SWAGGER_UI_PATH]: htmlPage('api_schema_swagger_ui', 'Swagger UI on this document, to try the API'),
    [REDOC_PATH]: htmlPage('api_schema_redoc', 'ReDoc on this document'),
  };
  const root = (path: string) => `${slug(path)}_root`;
  for (const plugin of plugins.filter(hasApiRoot)) paths[plugin.basePath] = index(root(plugin.basePath), `The endpoints of ${plugin.label ?? plugin.name}`);
  // Apps that only hold aliases (`/api/core/`) have a root too.
  for (const alias of plugins.flatMap((p) => p.aliases ?? [])) {
    const app = /^\/api\/[a-z0-9_-]+\//.exec(alias.path)?.[0];
    if (app && !paths[app]) paths[app] = index(root(app), `The endpoints of ${app}`);
  }
  return paths;
}

/**
 * The OpenAPI 3 document of everything the server serves, built once from the same declarations that serve the
 * requests: each model's paths, parameters (every filter with every lookup) and schemas, and the plugins' own paths.
 */
/** What the document is built from: the models, their filters, the plugins and the extra routes each registered. */
export interface OpenApiSources {
  registry: ModelRegistry;
  filters: FilterSets;
  plugins: Plugin[];
  routes: Map<string, RecordedRoute[]>;
}

export function buildOpenApi(deps: OpenApiSources): OpenApiDocument {
  const { registry, filters, plugins, routes } = deps;
  const names = componentNames(registry);
  const schemas: Record<string, SchemaObject> = {
    Error: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
    ValidationError: {
      type: 'object',
      description: 'Messages by field name (`__all__`-level ones under `non_field_errors`); a bulk write answers a list of these, aligned with its input.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  };
  const paths: Record<string, PathItem> = kernelPaths(plugins);
  const tags: { name: string; description: string }[] = [{ name: 'api', description: 'The API roots, status and schema' }];
  // Models' actions are listed with their model, whichever plugin adds them.
  const actions = new Map<string, ExtraRoute[]>();
  for (const plugin of plugins) {
    for (const action of plugin.actions ?? []) {
      appendTo(actions, action.model, { method: action.method, full: `${registry.apiPath(registry.get(action.model))}{id}/${action.name}/`, doc: action.operation });
    }
  }
  for (const plugin of plugins) {
    const tag = plugin.name;
    tags.push({ name: tag, description: plugin.label ?? plugin.name });
    const served = (plugin.models ?? []).filter((m) => m.served);
    for (const model of served) Object.assign(paths, modelPaths(model, registry, filters, names, tag, schemas));
    for (const alias of plugin.aliases ?? []) Object.assign(paths, modelPaths(alias.model, registry, filters, names, tag, schemas, alias.path));
    Object.assign(paths, routePaths(tag, [...pluginRoutes(plugin, routes.get(plugin.name) ?? []), ...served.flatMap((m) => actions.get(m.key) ?? [])]));
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Patchbay REST API', version: `${API_VERSION} (Patchbay ${PATCHBAY_VERSION})`, description: 'The NetBox 4.4 REST API as Patchbay serves it.' },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: { tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'A token: `Token <key>`.' } },
      headers: {
        'API-Version': { description: 'The NetBox API version Patchbay implements.', schema: { type: 'string' } },
        'X-Request-ID': { description: 'The id of this request, as the change log and the server log record it.', schema: { type: 'string', format: 'uuid' } },
      },
      responses: {
        Error: { description: 'Not found, not permitted, or refused', content: json(ref('Error')) },
        ValidationError: { description: 'Bad input, by field', content: json({ oneOf: [ref('ValidationError'), { type: 'array', items: ref('ValidationError') }, ref('Error')] }) },
      },
    },
    security: [{ tokenAuth: [] }],
    tags,
  };
}
