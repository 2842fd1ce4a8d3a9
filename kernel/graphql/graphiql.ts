import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { appPage, staticAssets } from '../http/assets.js';

const require = createRequire(import.meta.url);
const GRAPHIQL = dirname(require.resolve('graphiql/package.json'));
const REACT = dirname(require.resolve('react/package.json'));
const REACT_DOM = dirname(require.resolve('react-dom/package.json'));
const OWN = join(dirname(fileURLToPath(import.meta.url)), 'assets');

export const GRAPHIQL_FILES = '/static/graphiql/';

/** GraphiQL's files from the installed packages (no CDN): React's and GraphiQL's browser bundles, and the page's script. */
export const graphiqlAssets = staticAssets({
  'react.production.min.js': { file: join(REACT, 'umd/react.production.min.js') },
  'react-dom.production.min.js': { file: join(REACT_DOM, 'umd/react-dom.production.min.js') },
  'graphiql.min.js': { file: join(GRAPHIQL, 'graphiql.min.js') },
  'graphiql.min.css': { file: join(GRAPHIQL, 'graphiql.min.css') },
  'patchbay-init.js': { file: join(OWN, 'graphiql-init.js') },
});

/** The page runs only the scripts served beside it; GraphiQL styles inline and loads fonts and images as data. */
const POLICY = "default-src 'self'; img-src 'self' data:; font-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'self'";

const PAGE = appPage(
  'GraphiQL',
  `<link rel="icon" href="data:,"><link rel="stylesheet" href="${GRAPHIQL_FILES}graphiql.min.css">`,
  `<div id="graphiql" style="height:100vh"></div>${['react.production.min.js', 'react-dom.production.min.js', 'graphiql.min.js', 'patchbay-init.js']
    .map((file) => `<script src="${GRAPHIQL_FILES}${file}"></script>`)
    .join('')}`,
);

/** The GraphiQL page, for a browser's GET of `/graphql/`. */
export function graphiqlPage(_req: Request, res: Response): void {
  res.set('Content-Security-Policy', POLICY).type('html').send(PAGE);
}

/** A browser asking for the page rather than running a query. */
export function wantsGraphiql(req: Request): boolean {
  return req.method === 'GET' && req.query.query === undefined && !!req.get('accept')?.includes('text/html');
}
