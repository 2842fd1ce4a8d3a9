import express, { type Request, type Router } from 'express';
import { dump } from 'js-yaml';
import { StoredBody } from '../http/stored-body.js';
import type { OpenApiDocument } from './document.js';
import { addDocumentationPages } from './pages.js';

/** JSON when asked for by `?format=json` or `Accept: application/json`; YAML otherwise, as NetBox (drf-spectacular) answers. */
function wantsJson(req: Request): boolean {
  const format = req.query.format;
  if (format === 'json') return true;
  if (format === 'yaml' || format === 'openapi') return false;
  return req.accepts(['application/vnd.oai.openapi', 'application/yaml', 'application/json']) === 'application/json';
}

/** `/api/schema/`: the OpenAPI document, rendered once in both forms and served from memory; Swagger UI and ReDoc on it. */
export function schemaRouter(document: OpenApiDocument): Router {
  // nb_inventory fetches the document on every run: 2.7 MB of JSON, some 120 kB gzipped.
  const json = new StoredBody('application/json', Buffer.from(JSON.stringify(document)));
  const yaml = new StoredBody('application/vnd.oai.openapi', Buffer.from(dump(document, { noRefs: true, lineWidth: -1 })));
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/api/schema/', (req, res) => {
    (wantsJson(req) ? json : yaml).send(req, res.vary('Accept'));
  });
  addDocumentationPages(router);
  return router;
}
