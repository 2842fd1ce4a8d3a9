import express, { type Request, type Response, type Router } from 'express';
import { csrfFailure, csrfFailurePage, sentCsrfToken, BROWSABLE_FILES, PAGE_POLICY, escapeHtml as escape, type Settings, type QueuePort, type Task, type TaskStatus } from 'patchbay';
import { requeueTask } from './background.js';

export const TASKS_PAGE = '/core/background-tasks/';
/** What the page lists, in this order: work waiting or under way, then what needs a person. */
const SECTIONS: [TaskStatus, string][] = [['failed', 'Failed'], ['started', 'Running'], ['queued', 'Queued'], ['scheduled', 'Scheduled (a retry or a later run)']];

const time = (d: Date | null) => (d ? escape(d.toISOString().replace('T', ' ').slice(0, 19)) : '—');

function row(task: Task, csrf: string): string {
  const errors = task.errors.length
    ? `<details><summary>Error log (${task.errors.length})</summary><pre>${escape(task.errors.join('\n\n'))}</pre></details>`
    : '';
  const requeue = task.status === 'failed'
    ? `<form method="post" action="${TASKS_PAGE}${encodeURIComponent(task.id)}/requeue/"><input type="hidden" name="csrfmiddlewaretoken" value="${escape(csrf)}"><button type="submit">Requeue</button></form>`
    : '';
  return `<tr data-id="${escape(task.id)}" data-status="${task.status}"><td><code>${escape(task.id)}</code></td><td>${escape(task.description)}</td>
<td>${escape(task.name)}</td><td>${time(task.created)}</td><td>${time(task.ended)}</td><td>${task.attemptsMade}/${task.attempts}</td><td>${errors}${requeue}</td></tr>`;
}

function page(sections: [string, Task[]][], queue: QueuePort, username: string, csrf: string, notice: string): string {
  const tables = sections.map(([title, tasks]) => `<section><h2>${escape(title)} <small>(${tasks.length})</small></h2>${
    tasks.length
      ? `<table><thead><tr><th>ID</th><th>Description</th><th>Job</th><th>Created</th><th>Ended</th><th>Attempts</th><th></th></tr></thead><tbody>${tasks.map((t) => row(t, csrf)).join('')}</tbody></table>`
      : '<p class="empty">None.</p>'
  }</section>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Background tasks – Patchbay</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${BROWSABLE_FILES}browsable.css"></head>
<body class="tasks"><header><h1>Background tasks</h1><div>${escape(username)} · <form class="inline" method="post" action="/logout/"><input type="hidden" name="csrfmiddlewaretoken" value="${escape(csrf)}"><button type="submit">Log out</button></form></div></header>
<p>Queue <b>${escape(queue.name)}</b>: ${escape(queue.description)} · <a href="/api/core/background-tasks/">API</a></p>
${notice ? `<p class="notice" role="status">${escape(notice)}</p>` : ''}${tables.join('\n')}</body></html>`;
}

/** A browser that is not staff: sent to log in, or told it may not. */
function allowed(req: Request, res: Response): boolean {
  if (!req.principal.user) {
    res.redirect(302, `/login/?next=${encodeURIComponent(req.originalUrl)}`);
    return false;
  }
  if (!req.principal.user.is_staff) {
    res.status(403).type('html').send('<!doctype html><title>Forbidden</title><h1>Forbidden (403)</h1><p>Background tasks are for staff users.</p>');
    return false;
  }
  return true;
}

/**
 * The background tasks page (spec §6.4): queued, running, retrying and failed jobs, the error log of each failure
 * and a Requeue button (a form with the session's CSRF token), for staff users logged in with a cookie.
 */
export function tasksPage(queue: QueuePort, settings: Settings): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/', async (req, res) => {
    if (!allowed(req, res)) return;
    const tasks = await queue.tasks(SECTIONS.map(([s]) => s));
    const sections = SECTIONS.map(([status, title]): [string, Task[]] => [title, tasks.filter((t) => t.status === status)]);
    const notice = typeof req.query.requeued === 'string' ? `Job ${req.query.requeued} requeued.` : '';
    res.set('Content-Security-Policy', PAGE_POLICY).type('html').send(page(sections, queue, req.principal.user!.username, req.principal.csrfToken ?? '', notice));
  });
  router.post('/:id/requeue/', async (req, res) => {
    if (!allowed(req, res)) return;
    const refused = csrfFailure(req, settings.CSRF_TRUSTED_ORIGINS, sentCsrfToken(req), req.principal.csrfToken ?? '');
    if (refused) {
      res.status(403).type('html').send(csrfFailurePage(refused));
      return;
    }
    await requeueTask(queue, req.params.id);
    res.redirect(303, `${TASKS_PAGE}?requeued=${encodeURIComponent(req.params.id)}`);
  });
  return router;
}
