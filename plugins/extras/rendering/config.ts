import type { Request, RequestHandler } from 'express';
import {
  ForeignKeyField, HttpError, detailObject, isPlainObject,
  type DataAccess, type JsonObject, type Model, type PluginContext, type RenderInput, type Row,
} from 'patchbay';
import { ConfigContextField } from '../config-context/field.js';
import { sendRendered } from './respond.js';

const TEMPLATES = 'extras.configtemplate';
/** Where a device or VM without a template of its own finds one, in order (NetBox's get_config_template). */
const RESOLUTION = ['role', 'platform'];

/** The request body as context data: a JSON object (an empty body is none). */
function bodyData(req: Request): JsonObject {
  const body: unknown = req.payload ?? {};
  if (!isPlainObject(body)) throw new HttpError(400, { detail: 'The context must be a JSON object.' });
  return body as JsonObject;
}

/** Templates of `model` by name, for `{% include %}` and `{% import %}`: those the reader may view, the first of a name. */
export function templatesByName(ctx: PluginContext, access: DataAccess, model = TEMPLATES) {
  return async (name: string): Promise<string | undefined> => {
    const [row] = await access.list(ctx.registry.get(model), { params: { name: [name] }, ordering: ['id'], limit: 1 });
    return row ? (row.template_code as string) : undefined;
  };
}

/** Renders `template` with a context, answering as the client asks. */
async function renderWith(req: Request, res: Parameters<RequestHandler>[1], ctx: PluginContext, access: DataAccess, template: Row, input: Pick<RenderInput, 'data' | 'objects'>) {
  const content = await ctx.templates.render(
    { purpose: 'config_template', source: template.template_code as string, params: template.environment_params as JsonObject | null, ...input, templates: templatesByName(ctx, access) },
    access,
  );
  const [brief] = await access.render(ctx.registry.get(TEMPLATES), [template], { mode: 'brief' });
  sendRendered(req, res, brief, content);
}

/** `POST /api/extras/config-templates/<id>/render/`: the body is the whole context (with the models by app). */
export function renderTemplateRoute(ctx: PluginContext): RequestHandler {
  return async (req, res) => {
    const access = ctx.as(req);
    const templates = ctx.registry.get(TEMPLATES);
    await access.require(templates, 'add');
    const template = await detailObject(req, access, templates);
    await renderWith(req, res, ctx, access, template, { data: bodyData(req) });
  };
}

/**
 * The template of a device or VM (its own, else its role's, else its platform's: NetBox's get_config_template) if
 * the reader may view it, as one statement: the template whose id is the first of those set.
 */
async function templateOf(ctx: PluginContext, access: DataAccess, model: Model, row: Row): Promise<Row | undefined> {
  const candidates = ['?::int'];
  const bindings: (string | number | null)[] = [(row.config_template_id as number | null) ?? null];
  for (const name of RESOLUTION) {
    const field = ctx.registry.fieldOf(model, name);
    if (!(field instanceof ForeignKeyField) || !row[field.column]) continue;
    candidates.push('(select config_template_id from ?? where id = ?)');
    bindings.push(ctx.registry.get(field.target).table, row[field.column] as number);
  }
  const templates = ctx.registry.get(TEMPLATES);
  // The template is rendered only for a reader who may view it (as `{% include %}` does): else it is not there.
  if ((candidates.length === 1 && !row.config_template_id) || !(await access.can(templates, 'view'))) return undefined;
  const [template] = await access.list(templates, {
    where: { op: 'sql', condition: (qb, alias) => void qb.whereRaw(`??.id = coalesce(${candidates.join(', ')})`, [alias, ...bindings]) },
    ordering: [], limit: 1,
  });
  return template;
}

/**
 * `POST /api/<app>/<objects>/<id>/render-config/` of a device or VM: its template rendered with its config context,
 * updated by the body, and the object itself as `device` or `virtualmachine`.
 */
export function renderConfigRoute(ctx: PluginContext, key: string): RequestHandler {
  return async (req, res) => {
    const access = ctx.as(req);
    const model = ctx.registry.get(key);
    await access.require(model, 'add');
    const row = await detailObject(req, access, model);
    const template = await templateOf(ctx, access, model, row);
    if (!template) throw new HttpError(400, { error: `No config template found for this ${model.name}.` });
    const field = ctx.registry.fieldOf(model, 'config_context') as ConfigContextField;
    const context = (await field.contextsOf([row], { db: ctx.db, registry: ctx.registry })).get(row.id as number) ?? {};
    const data = { ...context, ...bodyData(req) };
    await renderWith(req, res, ctx, access, template, { data, objects: { [model.name]: { model: model.key, id: row.id as number, row } } });
  };
}
