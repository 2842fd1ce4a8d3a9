import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NextFunction, Request, Response, Router } from 'express';
import { StoredBody } from '../http/stored-body.js';

const require = createRequire(import.meta.url);
const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));
const REDOC = dirname(require.resolve('redoc/bundles/redoc.standalone.js'));
const OWN = join(dirname(fileURLToPath(import.meta.url)), 'assets');

export const SWAGGER_UI_PATH = '/api/schema/swagger-ui/';
export const REDOC_PATH = '/api/schema/redoc/';
const SWAGGER_UI_FILES = '/static/swagger-ui/';
const REDOC_FILES = '/static/redoc/';

interface Asset {
  file: string;
  /** A text to cut from the file as it is served. */
  cut?: string;
}

/**
 * Only what the pages load, from the installed packages (no CDN) and nothing else of them (their demo pages).
 * Public, as NetBox's `/static/`: they are the packages' files, and the login page needs none of them.
 */
const ASSETS: Record<string, Record<string, Asset>> = {
  [SWAGGER_UI_FILES]: {
    'swagger-ui.css': { file: join(SWAGGER_UI, 'swagger-ui.css') },
    'swagger-ui-bundle.js': { file: join(SWAGGER_UI, 'swagger-ui-bundle.js') },
    'favicon-32x32.png': { file: join(SWAGGER_UI, 'favicon-32x32.png') },
    'patchbay-init.js': { file: join(OWN, 'swagger-ui-init.js') },
  },
  // ReDoc's one remote resource is its logo; without the address its image hides itself and the page asks nothing of a CDN.
  [REDOC_FILES]: { 'redoc.standalone.js': { file: join(REDOC, 'redoc.standalone.js'), cut: 'https://cdn.redoc.ly/redoc/logo-mini.svg' } },
};

/** The pages run only the scripts served beside them; both packages style with inline styles, ReDoc searches in a worker. */
const POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'self'";

function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – Patchbay API</title>${head}</head>
<body style="margin:0">${body}</body></html>`;
}

const SWAGGER_UI_PAGE = page(
  'Swagger UI',
  `<link rel="icon" type="image/png" href="${SWAGGER_UI_FILES}favicon-32x32.png"><link rel="stylesheet" href="${SWAGGER_UI_FILES}swagger-ui.css">`,
  `<div id="swagger-ui"></div><script src="${SWAGGER_UI_FILES}swagger-ui-bundle.js"></script><script src="${SWAGGER_UI_FILES}patchbay-init.js"></script>`,
);
const REDOC_PAGE = page('ReDoc', '', `<redoc spec-url="/api/schema/?format=json"></redoc><script src="${REDOC_FILES}redoc.standalone.js"></script>`);

/** The assets of a folder, by name, read on first request and served from memory; anything else falls through. */
function assets(files: Record<string, Asset>) {
  const loaded = new Map<string, StoredBody>();
  const load = ({ file, cut }: Asset) => {
    const bytes = readFileSync(file);
    return new StoredBody(extname(file), cut ? Buffer.from(bytes.toString('utf8').replaceAll(cut, '')) : bytes, /\.(js|css)$/.test(file));
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const asset = Object.hasOwn(files, req.path.slice(1)) ? files[req.path.slice(1)] : undefined;
    if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (!loaded.has(asset.file)) loaded.set(asset.file, load(asset));
    loaded.get(asset.file)!.send(req, res.set('Cache-Control', 'public, max-age=3600'));
  };
}

/**
 * Swagger UI and ReDoc on the document, from the local npm packages. They sit under `/api/`, so the same login
 * rules hold: with LOGIN_REQUIRED a browser without a session is sent to log in first.
 */
export function addDocumentationPages(router: Router): void {
  const html = (body: string) => (_req: Request, res: Response) => {
    res.set('Content-Security-Policy', POLICY).type('html').send(body);
  };
  router.get(SWAGGER_UI_PATH, html(SWAGGER_UI_PAGE));
  router.get(REDOC_PATH, html(REDOC_PAGE));
  for (const [path, files] of Object.entries(ASSETS)) router.use(path, assets(files));
}
