import express, { type Request, type Router } from 'express';
import { dump } from 'js-yaml';
import { lazily } from '../base/collections.js';
import { StoredBody } from '../http/stored-body.js';
import type { HttpSurface } from '../app/surface.js';
import type { Logger } from '../base/log.js';
import { buildOpenApi, type OpenApiDocument, type OpenApiSources } from './document.js';
import { REDOC_PATH, SWAGGER_UI_PATH, addDocumentationPages } from './pages.js';
import { documentParts, findPart, partDocument, type DocumentPart } from './by-app.js';

/** JSON when asked for by `?format=json` or `Accept: application/json`; YAML otherwise, as NetBox (drf-spectacular) answers. */
function wantsJson(req: Request): boolean {
  const format = req.query.format;
  if (format === 'json') return true;
  if (format === 'yaml' || format === 'openapi') return false;
  return req.accepts(['application/vnd.oai.openapi', 'application/yaml', 'application/json']) === 'application/json';
}

/**
 * `/api/schema/`: the OpenAPI document, each form rendered once, when first asked for (or by `prepare`), and served from
 * memory; Swagger UI and ReDoc on it.
 */
export function schemaRouter(document: () => OpenApiDocument): { router: Router; prepare(): void } {
  // nb_inventory fetches the document on every run: 2.7 MB of JSON, some 120 kB gzipped.
  const json = lazily(() => new StoredBody('application/json', Buffer.from(JSON.stringify(document()))));
  const yaml = lazily(() => new StoredBody('application/vnd.oai.openapi', Buffer.from(dump(document(), { noRefs: true, lineWidth: -1 }))));
  const parts = lazily(() => documentParts(document()));
  // One part's document (`?app=dcim&part=2`), each form made once when first asked for.
  const ofPart = new Map<string, StoredBody>();
  const partBody = (part: DocumentPart, asJson: boolean) => {
    const key = `${part.app}:${part.part}:${asJson}`;
    let body = ofPart.get(key);
    if (!body) {
      const doc = partDocument(document(), part);
      body = asJson ? new StoredBody('application/json', Buffer.from(JSON.stringify(doc))) : new StoredBody('application/vnd.oai.openapi', Buffer.from(dump(doc, { noRefs: true, lineWidth: -1 })));
      ofPart.set(key, body);
    }
    return body;
  };
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/api/schema/', (req, res) => {
    const { app, part = '1' } = req.query;
    if (app === undefined) return void (wantsJson(req) ? json() : yaml()).send(req, res.vary('Accept'));
    const found = findPart(parts(), app, part);
    if (!found) {
      const apps = [...new Set(parts().map((p) => p.app))];
      const problem = typeof app === 'string' && apps.includes(app) ? { part: [`${String(part)} is not a part of ${app}.`] } : { app: [`Select a valid choice. ${String(app)} is not one of the available choices: ${apps.join(', ')}.`] };
      return void res.status(400).json(problem);
    }
    partBody(found, wantsJson(req)).send(req, res.vary('Accept'));
  });
  addDocumentationPages(router, parts);
  return {
    router,
    prepare: () => {
      json();
      yaml();
    },
  };
}

/**
 * The OpenAPI mechanism on the surface: the document, built from every route and rendered when first asked for (or by
 * the returned `prepare` at start), and its pages.
 */
export function mountOpenApi(surface: HttpSurface, deps: OpenApiSources & { log: Logger }): () => void {
  const document = lazily(() => {
    const started = performance.now();
    const built = buildOpenApi(deps);
    deps.log.info(`OpenAPI document: ${Object.keys(built.paths).length} paths built in ${Math.round(performance.now() - started)} ms`);
    return built;
  });
  const { router, prepare } = schemaRouter(document);
  surface.mount('/', router);
  surface.link({ path: SWAGGER_UI_PATH, title: 'Swagger UI', description: 'The OpenAPI schema of every endpoint, to try requests from.' });
  surface.link({ path: REDOC_PATH, title: 'ReDoc', description: 'The same schema as a reference to read.' });
  return prepare;
}
