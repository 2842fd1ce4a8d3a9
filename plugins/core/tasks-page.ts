import express, { type Request, type Response, type Router } from 'express';
import {
  csrfFailure, csrfFailurePage, sentCsrfToken, pageHtml, PAGE_POLICY, escapeHtml as escape,
  type Settings, type QueuePort, type Task, type TaskStatus, type TaskSubject,
} from 'patchbay';
import { requeueTask } from './background.js';

export const TASKS_PAGE = '/core/background-tasks/';
/** What the page lists, in this order: work waiting or under way, then what needs a person. */
const SECTIONS: [TaskStatus, string][] = [['failed', 'Failed'], ['started', 'Running'], ['queued', 'Queued'], ['scheduled', 'Scheduled (a retry or a later run)']];

const time = (d: Date | null) => (d ? escape(d.toISOString().replace('T', ' ').slice(0, 19)) : '—');

/** What each task is about, by task id, from the jobs that describe their tasks (a delivery: its webhook, URL, event, object). */
type Subjects = (tasks: Task[]) => Promise<Map<string, TaskSubject[]>>;

const subjectList = (subjects: TaskSubject[] = []) => (subjects.length
  ? `<dl class="subjects">${subjects.map((s) => `<dt>${escape(s.label)}</dt><dd>${s.href ? `<a href="${escape(s.href)}">${escape(s.text)}</a>` : escape(s.text)}</dd>`).join('')}</dl>`
  : '');

function row(task: Task, subjects: TaskSubject[] | undefined, csrf: string): string {
  const errors = task.errors.length
    ? `<details><summary>Error log (${task.errors.length})</summary><pre>${escape(task.errors.join('\n\n'))}</pre></details>`
    : '';
  const requeue = task.status === 'failed'
    ? `<form method="post" action="${TASKS_PAGE}${encodeURIComponent(task.id)}/requeue/"><input type="hidden" name="csrfmiddlewaretoken" value="${escape(csrf)}"><button class="btn" type="submit">Requeue</button></form>`
    : '';
  const when = task.status === 'scheduled' ? time(task.runsAt) : time(task.ended);
  return `<tr data-id="${escape(task.id)}" data-status="${task.status}"><td><a href="/api/core/background-tasks/${encodeURIComponent(task.id)}/"><code>${escape(task.id)}</code></a></td>
<td>${escape(task.description)}${subjectList(subjects)}</td><td>${escape(task.name)}</td><td>${time(task.created)}</td><td>${when}</td><td>${task.attemptsMade}/${task.attempts}</td><td>${errors}${requeue}</td></tr>`;
}

function content(sections: [TaskStatus, string, Task[]][], subjects: Map<string, TaskSubject[]>, queue: QueuePort, csrf: string, notice: string): string {
  const tables = sections.map(([status, title, tasks]) => `<section class="card"><h2>${escape(title)} <small class="muted">(${tasks.length})</small></h2>${
    tasks.length
      ? `<table><thead><tr><th>ID</th><th>What</th><th>Job</th><th>Created</th><th>${status === 'scheduled' ? 'Runs at' : 'Ended'}</th><th>Attempts</th><th></th></tr></thead><tbody>${
        tasks.map((t) => row(t, subjects.get(t.id), csrf)).join('')}</tbody></table>`
      : '<p class="muted">None.</p>'
  }</section>`);
  return `<main class="tasks">
<div class="title-row"><div><h1>Background tasks</h1><p class="description">Queue <b>${escape(queue.name)}</b>: ${escape(queue.description)}. Times are UTC.</p></div>
<div class="actions"><a class="btn" href="/api/core/background-tasks/">JSON</a></div></div>
${notice ? `<p class="notice" role="status">${escape(notice)}</p>` : ''}${tables.join('\n')}
</main>`;
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
export function tasksPage(queue: QueuePort, settings: Settings, subjects: Subjects): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  router.get('/', async (req, res) => {
    if (!allowed(req, res)) return;
    const tasks = await queue.tasks(SECTIONS.map(([s]) => s));
    const sections = SECTIONS.map(([status, title]): [TaskStatus, string, Task[]] => [status, title, tasks.filter((t) => t.status === status)]);
    const notice = typeof req.query.requeued === 'string' ? `Job ${req.query.requeued} requeued.` : '';
    const csrf = req.principal.csrfToken ?? '';
    const html = pageHtml({
      title: 'Background tasks', crumbs: [{ label: 'API Root', href: '/api/' }, { label: 'Core', href: '/api/core/' }, { label: 'Background tasks' }],
      user: req.principal.user!.username, csrfToken: csrf, next: req.originalUrl,
      content: content(sections, await subjects(tasks), queue, csrf, notice),
    });
    res.set('Content-Security-Policy', PAGE_POLICY).type('html').send(html);
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
