import type { Request, Response } from 'express';
import { notFound, type DataAccess, type JsonObject, type Model, type PluginContext, type Row } from 'patchbay';
import { templatesByName } from './config.js';

const TEMPLATES = 'extras.exporttemplate';
const DEFAULT_MIME_TYPE = 'text/plain; charset=utf-8';
/** List parameters that shape a page, not which objects: the export renders every object the filters select. */
const PAGING = new Set(['export', 'limit', 'offset', 'start', 'ordering', 'brief', 'fields', 'omit', 'exclude', 'format', 'indent']);

/** A header value as given when it is printable ASCII, else the default (a template's MIME type is free text). */
const headerSafe = (value: unknown, fallback: string) => (typeof value === 'string' && /^[\x20-\x7e]+$/.test(value) ? value : fallback);

/**
 * The first export template of that name for `model` that the reader may view (their constraints applied): one they
 * may not view is not there, as `{% include %}` does not find it.
 */
async function exportTemplate(ctx: PluginContext, access: DataAccess, model: Model, name: unknown): Promise<Row | undefined> {
  const templates = ctx.registry.get(TEMPLATES);
  if (typeof name !== 'string' || !(await access.can(templates, 'view'))) return undefined;
  const ids = (await ctx.db(templates.table).where('name', name).whereRaw('? = any(object_types)', [model.key]).pluck('id')) as number[];
  if (!ids.length) return undefined;
  const [first] = await access.list(templates, { ids, ordering: ['id'], limit: 1 });
  return first;
}

/**
 * `GET <list>?export=<name>`: the export template of that name for the list's model renders every object the list's
 * filters select (as `queryset`, read as the user may read them), served with the template's MIME type, and as an
 * attachment named after the template's file name (else the model's plural) when it says so.
 */
export async function exportList(req: Request, res: Response, model: Model, ctx: PluginContext): Promise<void> {
  const access = ctx.as(req);
  await access.require(model, 'view');
  const template = await exportTemplate(ctx, access, model, req.query.export);
  if (!template) throw notFound();
  const params: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(req.query)) {
    if (PAGING.has(key)) continue;
    params[key] = (Array.isArray(value) ? value : [value]).map(String);
  }
  // The filters are checked here, so that a bad one is the list's usual 400, not a template error.
  await access.count(model, { params });
  const output = await ctx.templates.render(
    {
      purpose: 'export_template',
      source: template.template_code as string,
      params: template.environment_params as JsonObject | null,
      querysets: { queryset: { model: model.key, params } },
      templates: templatesByName(ctx, access, TEMPLATES),
    },
    access,
  );
  if (template.as_attachment) {
    const extension = template.file_extension ? `.${String(template.file_extension)}` : '';
    const name = `${(template.file_name as string) || `netbox_${model.verboseNamePlural.toLowerCase().replace(/ /g, '_')}`}${extension}`;
    // Quoted as NetBox sends it; what cannot stand inside the quotes of a header becomes `_`.
    res.set('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`);
  }
  res.status(200).type(headerSafe(template.mime_type, DEFAULT_MIME_TYPE)).send(output);
}
