import express, { type Router } from 'express';
import type { Settings } from '../config/settings.js';
import { HttpError } from '../base/errors.js';
import { BROWSABLE_FILES } from '../http/pages.js';
import { escapeHtml as escape, textProblem } from '../base/text.js';
import { csrfFailure, csrfFailurePage, sentCsrfToken } from './csrf.js';
import type { Accounts } from './accounts.js';
import { CSRF_COOKIE, cookies, endSession, formCsrfToken, startSession } from './sessions.js';

/**
 * Only paths of this site: a login must not redirect to another one (`//evil.com` and `/\\evil.com` are other
 * sites to a browser).
 */
function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || textProblem(next)) return '/api/';
  const url = new URL(next, 'http://this.site');
  return url.origin === 'http://this.site' && !/[\\\x00-\x1f]/.test(next) ? next : '/api/';
}

/** The login form, in the browsable API's style. */
function page(next: string, csrf: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in – Patchbay</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${BROWSABLE_FILES}browsable.css"></head>
<body><header class="top"><a class="brand" href="/api/"><span class="logo" aria-hidden="true"></span>Patchbay API</a></header>
<main class="login"><form class="card" method="post" action="/login/"><h1>Log in</h1>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<input type="hidden" name="next" value="${escape(next)}"><input type="hidden" name="csrfmiddlewaretoken" value="${escape(csrf)}">
<button class="btn btn-primary m-post" type="submit">Log in</button></form></main></body></html>`;
}

/** `/login/` (form and post) and `/logout/` for browsing the API with a session cookie. */
export function loginRouter(accounts: Accounts, settings: Settings): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/login/', (req, res) => {
    res.type('html').send(page(safeNext(req.query.next), formCsrfToken(req, res, settings)));
  });
  router.post('/login/', async (req, res) => {
    const form = (req.payload ?? {}) as Record<string, unknown>;
    // As Django's: the form must carry the token of the browser's CSRF cookie, so another site cannot log it in.
    const csrf = cookies(req)[CSRF_COOKIE] ?? '';
    const refused = csrfFailure(req, settings.CSRF_TRUSTED_ORIGINS, sentCsrfToken(req), csrf);
    if (refused) {
      res.status(403).type('html').send(csrfFailurePage(refused, { href: '/login/', label: 'Log in again' }));
      return;
    }
    const next = safeNext(form.next);
    const text = (value: unknown) => (typeof value === 'string' && !textProblem(value) ? value : '');
    const username = text(form.username);
    const password = text(form.password);
    const user = await accounts.login(username, password);
    if (!user) {
      res.status(200).type('html').send(page(next, csrf, 'Invalid username/password'));
      return;
    }
    await startSession(accounts, settings, user.id, req, res);
    res.redirect(302, next);
  });
  // A POST form with the session's token, as NetBox 4's: a link (or an image) on another site cannot log a user out.
  router.post('/logout/', async (req, res) => {
    const expected = req.principal.csrfToken ?? cookies(req)[CSRF_COOKIE] ?? '';
    const refused = csrfFailure(req, settings.CSRF_TRUSTED_ORIGINS, sentCsrfToken(req), expected);
    if (refused) {
      res.status(403).type('html').send(csrfFailurePage(refused));
      return;
    }
    await endSession(accounts, settings, req, res);
    res.redirect(302, '/login/');
  });
  router.get('/logout/', (_req, res) => {
    res.set('Allow', 'POST');
    throw new HttpError(405, { detail: 'Method "GET" not allowed.' });
  });
  return router;
}
