import { gzipSync } from 'node:zlib';
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

/** A rendered form of the document, and its gzip, made on first request (nb_inventory fetches the document on every run). */
function rendered(type: string, text: string) {
  const plain = Buffer.from(text);
  let gzipped: Buffer | undefined;
  return { type, plain, gzipped: () => (gzipped ??= gzipSync(plain)) };
}

/** `/api/schema/`: the OpenAPI document, rendered once in both forms and served from memory; Swagger UI and ReDoc on it. */
export function schemaRouter(document: OpenApiDocument): Router {
  const json = rendered('application/json', JSON.stringify(document));
  const yaml = rendered('application/vnd.oai.openapi', dump(document, { noRefs: true, lineWidth: -1 }));
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/api/schema/', (req, res) => {
    const form = wantsJson(req) ? json : yaml;
    res.type(form.type).vary('Accept').vary('Accept-Encoding');
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') res.set('Content-Encoding', 'gzip').send(form.gzipped());
    else res.send(form.plain);
  });
  addDocumentationPages(router);
  return router;
}
