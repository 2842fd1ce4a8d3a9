import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import {
  API_VERSION, PAGE_POLICY, modelsByPath, requestedPath, takesParam,
  type HttpSurface, type Json, type JsonObject, type Logger, type Model, type ModelRegistry, type PageRenderer, type Plugin, type PluginContext,
} from 'patchbay';
import { browsableHtml, type PageView, type WriteMethod } from './page.js';

/** Parameters that shape a list rather than filter it. */
const LIST_PARAMETERS = new Set(['limit', 'offset', 'ordering', 'brief', 'format', 'fields', 'omit', 'exclude', 'q', 'indent']);
/** Request headers the page shows without their value. */
const HIDDEN_HEADERS = new Set(['cookie', 'authorization', 'x-csrftoken']);

/** A value as a write takes it back: a nested object by its id, a choice by its value. */
function writable(value: Json): Json {
  if (Array.isArray(value)) return value.map(writable);
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 2 && 'value' in value && 'label' in value) return value.value;
    if (typeof value.id === 'number' && ('url' in value || 'display' in value)) return value.id;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, writable(v)]));
  }
  return value;
}

/** `path` with its query, `name` set to `value` (or removed: null). */
function withParam(url: URL, name: string, value: string | null, drop?: { name: string; value: string }): string {
  const next = new URL(url);
  if (drop) {
    const kept = next.searchParams.getAll(drop.name).filter((v) => v !== drop.value);
    next.searchParams.delete(drop.name);
    for (const v of kept) next.searchParams.append(drop.name, v);
  }
  if (value === null) next.searchParams.delete(name);
  else next.searchParams.set(name, value);
  return `${next.pathname}${next.search}`;
}

/** An absolute link of the API as a path of this site (the page's links stay on the host it was served from). */
function pathOf(link: Json): string | null {
  if (typeof link !== 'string') return null;
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

interface Endpoint {
  model: Model;
  kind: 'list' | 'detail';
}

/**
 * The browsable API: every GET a browser sends to the API gets its JSON answer as a page (see page.ts). What the page
 * offers comes from the endpoint's model declaration: its filters, the methods it serves and the user may send,
 * and the writable fields the forms are prefilled with.
 */
export class BrowsableApi implements PageRenderer {
  /** Model by the path serving it (aliases included). */
  private readonly models: Map<string, Model>;
  /** App labels by base path, for breadcrumbs. */
  private readonly apps = new Map<string, string>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly filters: PluginContext['filters'],
    plugins: readonly Plugin[],
    private readonly log: Logger,
    /** Where the pages for people (GraphiQL, the API's documentation, the tasks) are linked from: the root lists them. */
    private readonly surface: Pick<HttpSurface, 'links'>,
  ) {
    this.models = modelsByPath(registry, plugins);
    for (const plugin of plugins) this.apps.set(plugin.basePath, plugin.label ?? plugin.name);
  }

  /** The model endpoint a route template is, if it is one. */
  private endpoint(route: string | undefined): Endpoint | undefined {
    if (!route) return undefined;
    const list = this.models.get(route);
    if (list) return { model: list, kind: 'list' };
    const detail = /^(.*\/):id\/$/.exec(route);
    const model = detail && this.models.get(detail[1]);
    return model ? { model, kind: 'detail' } : undefined;
  }

  /** Sends `body` (the JSON answer, with its status) as the page; if that fails, logs why and sends `fallback()`. */
  async respond(req: Request, res: Response, status: number, body: Json, title: string, fallback: () => void): Promise<void> {
    try {
      await this.render(req, res, status, body, title);
    } catch (err) {
      this.log.error(`The browsable page of ${req.method} ${requestedPath(req)} failed: ${(err as Error).stack ?? String(err)}`, { request_id: req.requestId });
      if (!res.headersSent) fallback();
    }
  }

  private async render(req: Request, res: Response, status: number, body: Json, answered: string): Promise<void> {
    const url = new URL(req.originalUrl, 'http://page');
    const endpoint = this.endpoint(req.scope?.route);
    const ok = status >= 200 && status < 300;
    // An error's page is still the endpoint's: its title, its filters and the form to create one (a list's).
    const title = endpoint ? `${endpoint.model.title} ${endpoint.kind === 'list' ? 'List' : 'Instance'}` : answered;
    const list = endpoint?.kind === 'list' ? endpoint : undefined;
    const allow = !endpoint ? ['GET', 'HEAD', 'OPTIONS']
      : endpoint.model.decl.readOnly ? ['GET', 'HEAD', 'OPTIONS']
      : endpoint.kind === 'list' ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] : ['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
    const view: PageView = {
      title,
      description: this.description(endpoint, title),
      crumbs: this.crumbs(url.pathname, endpoint, body),
      request: {
        method: req.method,
        url: `${url.pathname}${url.search}`,
        headers: Object.entries(req.headers).map(([k, v]) => [k, HIDDEN_HEADERS.has(k) ? '(not shown)' : [v].flat().join(', ')]),
      },
      response: {
        status, statusText: STATUS_CODES[status] ?? '', body,
        headers: [['Allow', allow.join(', ')], ['Content-Type', 'application/json'], ['API-Version', API_VERSION], ['Vary', 'Accept'], ['X-Request-ID', req.requestId]],
      },
      user: req.principal?.user?.username ?? null,
      next: `${url.pathname}${url.search}`,
      jsonUrl: withParam(url, 'format', 'json'),
      endpoint: url.pathname,
      options: endpoint !== undefined,
      pager: ok && list ? this.pager(url, body) : undefined,
      filters: list && this.filterPanel(url, list.model),
      ignored: list ? [...new Set(url.searchParams.keys())].filter((name) => !takesParam(this.filters, list.model, name)) : [],
      links: url.pathname === '/api/' ? [...this.surface.links] : [],
      forms: endpoint && !endpoint.model.decl.readOnly && (ok || list) ? await this.forms(req, endpoint, ok ? body : null) : [],
      csrfToken: req.principal?.csrfToken ?? '',
    };
    res.status(status).set('Content-Security-Policy', PAGE_POLICY).set('Vary', 'Accept').type('html').send(browsableHtml(view));
  }

  private description({ model, kind }: Partial<Endpoint> = {}, title = ''): string {
    if (!model) return title === 'API Root' ? 'The apps of this server, each with its endpoints.' : '';
    if (kind === 'list') {
      return `The ${model.verboseNamePlural}: filtered, ordered and paginated. POST creates one (an object) or several (a list); PUT, PATCH and DELETE with a list of objects with ids change several at once.`;
    }
    return `One ${model.verboseName}: PUT replaces it, PATCH changes the fields given, DELETE removes it.`;
  }

  /** API Root › App › Model › object, each but the last a link. */
  private crumbs(path: string, endpoint: Endpoint | undefined, body: Json): PageView['crumbs'] {
    const crumbs: PageView['crumbs'] = [{ label: 'API Root', href: '/api/' }];
    const segments = path.split('/').filter(Boolean).slice(1);
    let href = '/api/';
    for (const segment of segments) {
      href += `${segment}/`;
      const model = this.models.get(href);
      const app = this.apps.get(href);
      let label = model ? model.verboseNamePlural.replace(/^\w/, (c) => c.toUpperCase()) : app ?? segment.replace(/[-_]/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
      // The object itself, by its display.
      if (endpoint?.kind === 'detail' && href === path && body && typeof body === 'object' && !Array.isArray(body) && typeof body.display === 'string') label = body.display;
      crumbs.push({ label, href });
    }
    return crumbs;
  }

  private pager(url: URL, body: Json): PageView['pager'] {
    if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body.count !== 'number' || !Array.isArray(body.results)) return undefined;
    const offset = Number(url.searchParams.get('offset')) || 0;
    const shown = body.results.length;
    const summary = shown ? `${(offset + 1).toLocaleString('en')}–${(offset + shown).toLocaleString('en')} of ${body.count.toLocaleString('en')}` : `0 of ${body.count.toLocaleString('en')}`;
    return { previous: pathOf(body.previous), next: pathOf(body.next), summary };
  }

  private filterPanel(url: URL, model: Model): PageView['filters'] {
    const names: string[] = [];
    for (const [name, filter] of this.filters.of(model)) {
      names.push(name);
      for (const suffix of filter.suffixes) names.push(`${name}__${suffix}`);
    }
    const active = [...url.searchParams.entries()]
      .filter(([name]) => !LIST_PARAMETERS.has(name) && takesParam(this.filters, model, name))
      .map(([name, value]) => ({ name, value, remove: withParam(url, 'offset', null, { name, value }) }));
    const kept = [...url.searchParams.entries()].filter(([name]) => name !== 'q' && name !== 'offset');
    return { names: names.sort(), active, q: url.searchParams.get('q') ?? '', kept };
  }

  /** The forms of the methods the endpoint serves and the user may send, prefilled. */
  private async forms(req: Request, { model, kind }: Endpoint, body: Json): Promise<PageView['forms']> {
    if (!req.principal?.user || req.principal.via !== 'session') return [];
    const described = this.registry.outputFields(model, 'full').flatMap((f) => f.describe(this.registry));
    const keys = described.filter((p) => !p.readOnly && !p.writeOnly).map((p) => p.key);
    const forms: PageView['forms'] = [];
    const form = (method: WriteMethod, content: Json, hint: string) => forms.push({ method, body: JSON.stringify(content, null, 4), hint });
    if (kind === 'list') {
      if (await req.access.can(model, 'add')) {
        const required = described.filter((p) => p.required && !p.readOnly);
        const template: JsonObject = Object.fromEntries(required.map((p) => [p.key, p.type === 'string' && !p.choices ? '' : null]));
        form('POST', template, `Creates a ${model.verboseName}${required.length ? `; required: ${required.map((p) => p.key).join(', ')}` : ''}. A JSON list creates several.`);
      }
      return forms;
    }
    const current: JsonObject = body && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(keys.filter((k) => k in body).map((k) => [k, writable(body[k])]))
      : {};
    if (await req.access.can(model, 'change')) {
      form('PUT', current, `Replaces this ${model.verboseName}: every required field must be given.`);
      form('PATCH', current, 'Changes the fields given; leave out those to keep.');
    }
    if (await req.access.can(model, 'delete')) form('DELETE', null, `Deletes this ${model.verboseName}, after you confirm.`);
    return forms;
  }
}
