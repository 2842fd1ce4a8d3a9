import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response, Router } from 'express';
import { appPage, staticAssets, type Asset } from '../http/assets.js';
import { pageHtml } from '../http/pages.js';
import { escapeHtml } from '../base/text.js';
import { findPart, partLabel, type DocumentPart } from './by-app.js';

const require = createRequire(import.meta.url);
const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));
const REDOC = dirname(require.resolve('redoc/bundles/redoc.standalone.js'));
const OWN = join(dirname(fileURLToPath(import.meta.url)), 'assets');

export const SWAGGER_UI_PATH = '/api/schema/swagger-ui/';
export const REDOC_PATH = '/api/schema/redoc/';
const SWAGGER_UI_FILES = '/static/swagger-ui/';
const REDOC_FILES = '/static/redoc/';

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

const SWAGGER_UI_PAGE = appPage(
  'Swagger UI',
  `<link rel="icon" type="image/png" href="${SWAGGER_UI_FILES}favicon-32x32.png"><link rel="stylesheet" href="${SWAGGER_UI_FILES}swagger-ui.css">`,
  `<div id="swagger-ui"></div><script src="${SWAGGER_UI_FILES}swagger-ui-bundle.js"></script><script src="${SWAGGER_UI_FILES}patchbay-init.js"></script>`,
);
/** ReDoc on one part's document, or (`all`) the whole one, which it lays out in some forty seconds. */
const redocPage = (part: DocumentPart | 'all') => appPage(
  part === 'all' ? 'ReDoc' : `ReDoc: ${escapeHtml(partLabel(part))}`, '',
  `<redoc spec-url="/api/schema/?format=json${part === 'all' ? '' : `&amp;app=${encodeURIComponent(part.app)}&amp;part=${part.part}`}"></redoc><script src="${REDOC_FILES}redoc.standalone.js"></script>`,
);

/** ReDoc's first page, in the frame of the server's pages: the document's parts by app, each shown in a few seconds. */
const redocIndex = (parts: DocumentPart[], req: Request) => {
  const items = parts.map((p) => `<li><a href="${REDOC_PATH}?app=${encodeURIComponent(p.app)}&amp;part=${p.part}">${escapeHtml(partLabel(p))}</a>`
    + ` <span class="muted">– ${escapeHtml(p.resources.map((r) => r || 'its root').join(', '))}</span></li>`).join('');
  return pageHtml({
    title: 'ReDoc', crumbs: [{ label: 'API Root', href: '/api/' }, { label: 'ReDoc' }],
    user: req.principal?.user?.username ?? null, csrfToken: req.principal?.csrfToken ?? '', next: req.originalUrl,
    content: `<main><h1>API reference</h1><p class="description">The OpenAPI document by app, in parts ReDoc shows in a few seconds each (it lays out every operation of a document at once).</p>
<section class="card links"><ul>${items}<li><a href="${REDOC_PATH}?app=all">The whole document</a> <span class="muted">– some forty seconds to show</span></li></ul></section></main>`,
  });
};

/**
 * Swagger UI and ReDoc on the document, from the local npm packages. They sit under `/api/`, so the same login
 * rules hold: with LOGIN_REQUIRED a browser without a session is sent to log in first.
 */
export function addDocumentationPages(router: Router, parts: () => DocumentPart[]): void {
  const send = (res: Response, body: string) => res.set('Content-Security-Policy', POLICY).type('html').send(body);
  router.get(SWAGGER_UI_PATH, (_req, res) => send(res, SWAGGER_UI_PAGE));
  router.get(REDOC_PATH, (req: Request, res) => {
    const { app, part } = req.query;
    if (app === undefined) return void send(res, redocIndex(parts(), req));
    if (app === 'all') return void send(res, redocPage('all'));
    const found = findPart(parts(), app, part);
    // An app or part that is not (any more): the index, to choose from.
    if (!found) return void res.redirect(302, REDOC_PATH);
    send(res, redocPage(found));
  });
  for (const [path, files] of Object.entries(ASSETS)) router.use(path, staticAssets(files));
}
