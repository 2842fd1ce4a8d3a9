import express, { type Router } from 'express';
import type { Settings } from '../config/settings.js';
import type { Database } from '../db/database.js';
import { escapeHtml as escape, textProblem } from '../http/text.js';
import { verifyPassword } from './password.js';
import { CSRF_COOKIE, cookies, endSession, formCsrfToken, sameToken, startSession } from './sessions.js';


/**
 * Only paths of this site: a login must not redirect to another one (`//evil.com` and `/\\evil.com` are other
 * sites to a browser).
 */
function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || textProblem(next)) return '/api/';
  const url = new URL(next, 'http://this.site');
  return url.origin === 'http://this.site' && !/[\\\x00-\x1f]/.test(next) ? next : '/api/';
}

function page(next: string, csrf: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Log in – Patchbay</title><link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;background:#f6f7f9;display:grid;place-items:center;height:100vh;margin:0}
form{background:#fff;border:1px solid #dde;padding:2rem;min-width:18rem}label{display:block;margin:.6rem 0 .2rem}
input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#c62828}</style></head>
<body><form method="post" action="/login/"><h1>Patchbay</h1>
${error ? `<p class="error">${escape(error)}</p>` : ''}
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<input type="hidden" name="next" value="${escape(next)}"><input type="hidden" name="csrfmiddlewaretoken" value="${escape(csrf)}">
<button type="submit">Log in</button></form></body></html>`;
}

/** `/login/` (form and post) and `/logout/` for browsing the API with a session cookie. */
export function loginRouter(db: Database, settings: Settings): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/login/', (req, res) => {
    res.type('html').send(page(safeNext(req.query.next), formCsrfToken(req, res, settings)));
  });
  router.post('/login/', async (req, res) => {
    const form = (req.payload ?? {}) as Record<string, unknown>;
    // As Django's: the form must carry the token of the browser's CSRF cookie, so another site cannot log it in.
    const csrf = cookies(req)[CSRF_COOKIE] ?? '';
    if (!sameToken(typeof form.csrfmiddlewaretoken === 'string' ? form.csrfmiddlewaretoken : '', csrf)) {
      res.status(403).type('html').send('<!doctype html><title>Forbidden</title><h1>Forbidden (403)</h1><p>CSRF verification failed. Request aborted.</p><p><a href="/login/">Log in again</a></p>');
      return;
    }
    const next = safeNext(form.next);
    const text = (value: unknown) => (typeof value === 'string' && !textProblem(value) ? value : '');
    const username = text(form.username);
    const password = text(form.password);
    const user = (await db.knex('users_user').select('id', 'password', 'is_active').where('username', username).first()) as
      | { id: number; password: string; is_active: boolean }
      | undefined;
    const valid = await verifyPassword(password, user?.password);
    if (!user || !valid || !user.is_active) {
      res.status(200).type('html').send(page(next, csrf, 'Invalid username/password'));
      return;
    }
    await startSession(db.knex, settings, user.id, req, res);
    res.redirect(302, next);
  });
  const logout = async (req: express.Request, res: express.Response) => {
    await endSession(db.knex, settings, req, res);
    res.redirect(302, '/login/');
  };
  router.get('/logout/', logout);
  router.post('/logout/', logout);
  return router;
}
