import express, { type Request, type Router } from 'express';
import { dump } from 'js-yaml';
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
  const json = JSON.stringify(document);
  const yaml = dump(document, { noRefs: true, lineWidth: -1 });
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/api/schema/', (req, res) => {
    if (wantsJson(req)) res.type('application/json').send(json);
    else res.type('application/vnd.oai.openapi').send(yaml);
  });
  addDocumentationPages(router);
  return router;
}
