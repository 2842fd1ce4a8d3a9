import { fileURLToPath } from 'node:url';
import { escapeHtml } from '../base/text.js';
import { staticAssets } from './assets.js';

/** Where the style of the server's own pages (login, the browsable API, the tasks page) is served from. */
export const BROWSABLE_FILES = '/static/browsable/';

/** Only this server's files: no inline script or style can run on a page that shows what users wrote. */
export const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The pages' stylesheet, public as every `/static/` file. */
export const pageStyle = () => staticAssets({ 'browsable.css': { file: fileURLToPath(new URL('./assets/browsable.css', import.meta.url)) } });

/** The frame of the server's pages for people (the browsable API, the background tasks): one look, one header. */
export interface PageFrame {
  /** The page's name: its heading's, its tab's. */
  title: string;
  /** From the API root to this page; the last is the page itself (no link). */
  crumbs: { label: string; href?: string }[];
  /** The logged-in user (a Log out form with the session's CSRF token), or null (a login link back to `next`). */
  user: string | null;
  /** The session's CSRF token: the Log out form's, and the page's scripts' (a `csrf-token` meta tag). */
  csrfToken: string;
  /** Where the login link leads back to: this page. */
  next: string;
  /** Scripts of this server the page loads, deferred. */
  scripts?: string[];
  /** The page's own content, in the frame's grid. */
  content: string;
  /** The grid has a sidebar column (the browsable API's filters). */
  wide?: boolean;
}

function account(frame: PageFrame): string {
  if (!frame.user) return `<a class="btn btn-light" href="/login/?next=${encodeURIComponent(frame.next)}">Log in</a>`;
  // Logging out is a POST with the session's CSRF token: a link on another site cannot end the session.
  return `<span class="who">Logged in as <b>${escapeHtml(frame.user)}</b></span><form class="logout" method="post" action="/logout/">`
    + `<input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(frame.csrfToken)}"><button class="btn btn-light" type="submit">Log out</button></form>`;
}

const crumbs = (frame: PageFrame) =>
  frame.crumbs
    .map((c, i) => (c.href && i < frame.crumbs.length - 1 ? `<li><a href="${escapeHtml(c.href)}">${escapeHtml(c.label)}</a></li>` : `<li aria-current="page">${escapeHtml(c.label)}</li>`))
    .join('');

/** A page in the frame: every text escaped but `content`, which the caller escapes; served with PAGE_POLICY. */
export function pageHtml(frame: PageFrame): string {
  const scripts = (frame.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}" defer></script>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(frame.title)} – Patchbay API</title><link rel="icon" href="data:,">
<meta name="csrf-token" content="${escapeHtml(frame.csrfToken)}">
<link rel="stylesheet" href="${BROWSABLE_FILES}browsable.css">${scripts}</head>
<body>
<header class="top"><a class="brand" href="/api/"><span class="logo" aria-hidden="true"></span>Patchbay API</a><div class="account">${account(frame)}</div></header>
<nav class="crumbs" aria-label="Breadcrumb"><ol>${crumbs(frame)}</ol></nav>
<div class="layout${frame.wide ? ' with-filters' : ''}">
${frame.content}
</div>
</body></html>`;
}
