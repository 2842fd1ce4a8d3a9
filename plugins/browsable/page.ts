import { escapeHtml as escape, pageHtml, type Json, type PageLink } from 'patchbay';
import { jsonHtml } from './json.js';

/** Where the page's script is served from (its stylesheet is the server's pages' own). */
export const SCRIPT_FILES = '/static/browsable-api/';

export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Everything the browsable page shows of one response: built by BrowsableApi, rendered here. */
export interface PageView {
  title: string;
  /** What the endpoint serves, in words. */
  description: string;
  crumbs: { label: string; href?: string }[];
  request: { method: string; url: string; headers: [string, string][] };
  response: { status: number; statusText: string; headers: [string, string][]; body: Json };
  /** The logged-in user, or null (a login link then). */
  user: string | null;
  /** Where the login link leads back to. */
  next: string;
  /** This URL as JSON (`?format=json`), its other parameters kept. */
  jsonUrl: string;
  /** The endpoint's path, without the query: what OPTIONS and the forms send to. */
  endpoint: string;
  /** Whether OPTIONS describes the endpoint (a model's: its fields and their choices). */
  options: boolean;
  pager?: { previous: string | null; next: string | null; summary: string };
  filters?: {
    names: string[];
    active: { name: string; value: string; remove: string }[];
    q: string;
    /** The parameters a new search keeps (the filters, the page size, the ordering), without `q` and `offset`. */
    kept: [string, string][];
  };
  /** Query parameters the list does not take, and so ignored (as NetBox ignores them). */
  ignored: string[];
  /** Pages for people the root links to (GraphiQL, Swagger UI, ReDoc, the tasks). */
  links: PageLink[];
  /** Raw-JSON forms the user may send, each with its prefilled body. */
  forms: { method: WriteMethod; body: string; hint: string }[];
  csrfToken: string;
}

const headerLines = (lines: [string, string][]) => lines.map(([k, v]) => `<span class="h-name">${escape(k)}:</span> ${escape(v)}`).join('\n');

function pager(view: PageView): string {
  if (!view.pager) return '';
  const { previous, next, summary } = view.pager;
  const link = (href: string | null, label: string, rel: string) =>
    href ? `<a class="btn" rel="${rel}" href="${escape(href)}">${label}</a>` : `<span class="btn disabled" aria-disabled="true">${label}</span>`;
  return `<nav class="pager" aria-label="Pages">${link(previous, '« Previous', 'prev')}<span class="summary">${escape(summary)}</span>${link(next, 'Next »', 'next')}</nav>`;
}

function filters(view: PageView): string {
  if (!view.filters) return '';
  const { names, active, q, kept } = view.filters;
  const chips = active.length
    ? `<ul class="chips">${active.map((f) => `<li><code>${escape(f.name)}=${escape(f.value)}</code><a href="${escape(f.remove)}" title="Remove this filter" aria-label="Remove ${escape(f.name)}">×</a></li>`).join('')}</ul>`
    : '<p class="muted">No filters applied.</p>';
  return `<aside class="card filters" aria-labelledby="filters-title">
<h2 id="filters-title">Filters</h2>
<form method="get" action="${escape(view.endpoint)}" class="search">
${kept.map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('')}
<label for="q">Search</label><div class="row"><input id="q" name="q" value="${escape(q)}" placeholder="Search…"><button class="btn" type="submit">Search</button></div>
</form>
${chips}
<form class="add-filter" id="add-filter">
<label for="filter-name">Add a filter</label>
<input id="filter-name" list="filter-names" placeholder="name, e.g. status or name__ic" autocomplete="off" required>
<datalist id="filter-names">${names.map((n) => `<option value="${escape(n)}"></option>`).join('')}</datalist>
<label for="filter-value">Value</label>
<div class="row"><input id="filter-value" placeholder="value" required><button class="btn" type="submit">Add</button></div>
</form>
<p class="muted small">${names.length} filters, from the same declarations the API filters with. Repeat a filter to match any of its values.</p>
</aside>`;
}

/** What each form's button does, as a person says it. */
const ACTIONS: Record<WriteMethod, string> = { POST: 'Create', PUT: 'Replace', PATCH: 'Update', DELETE: 'Delete' };

/** Parameters the list ignored: said, since the answer is then the unfiltered list. */
function ignored(view: PageView): string {
  if (!view.ignored.length) return '';
  const names = view.ignored.map((n) => `<code>${escape(n)}</code>`).join(', ');
  return `<p class="notice" role="status">Ignored: ${names} ${view.ignored.length === 1 ? 'is not a filter' : 'are not filters'} of this list, so the answer is not filtered by ${view.ignored.length === 1 ? 'it' : 'them'}. The filter box lists those it takes.</p>`;
}

/** The pages for people the API root links to. */
function links(view: PageView): string {
  if (!view.links.length) return '';
  const items = view.links.map((l) => `<li><a href="${escape(l.path)}">${escape(l.title)}</a> <span class="muted">– ${escape(l.description)}</span></li>`).join('');
  return `<section class="card links" aria-labelledby="links-title"><h2 id="links-title">Also here</h2><ul>${items}</ul></section>`;
}

function forms(view: PageView): string {
  if (!view.forms.length) return '';
  const tabs = view.forms
    .map((f, i) => `<button type="button" role="tab" class="tab m-${f.method.toLowerCase()}" id="tab-${f.method}" aria-selected="${i === 0}" data-method="${f.method}">${f.method}</button>`)
    .join('');
  const panels = view.forms
    .map((f, i) => `<div role="tabpanel" class="panel" data-method="${f.method}" aria-labelledby="tab-${f.method}"${i === 0 ? '' : ' hidden'}>
<p class="muted small">${escape(f.hint)}</p>
${f.method === 'DELETE' ? '' : `<label for="body-${f.method}">Content (application/json)</label><textarea id="body-${f.method}" name="content" spellcheck="false" rows="12">${escape(f.body)}</textarea>`}
<button type="button" class="btn btn-primary send m-${f.method.toLowerCase()}" data-method="${f.method}">${ACTIONS[f.method]}</button>
</div>`)
    .join('');
  return `<section class="card write" aria-labelledby="write-title">
<h2 id="write-title">Send raw JSON</h2>
<div role="tablist" class="tabs">${tabs}</div>
${panels}
</section>`;
}

/**
 * The browsable API page, in the manner of Django REST framework's: breadcrumbs, the request and the response
 * with their headers, the JSON with its URLs as links, pages, the endpoint's filters, an OPTIONS button and raw
 * JSON forms for the methods the user may send. Every text is escaped; the page's script and style are files of
 * this server, so that its Content-Security-Policy allows nothing else.
 */
export function browsableHtml(view: PageView): string {
  const { request, response } = view;
  return pageHtml({
    title: view.title, crumbs: view.crumbs, user: view.user, csrfToken: view.csrfToken, next: view.next, scripts: [`${SCRIPT_FILES}browsable.js`],
    wide: !!view.filters,
    content: `<main>
<div class="title-row"><div><h1>${escape(view.title)}</h1><p class="description">${escape(view.description)}</p></div>
<div class="actions">${view.options ? `<button type="button" class="btn" id="options" data-url="${escape(view.endpoint)}">OPTIONS</button>` : ''}<a class="btn" href="${escape(view.jsonUrl)}">JSON</a></div></div>
${ignored(view)}${links(view)}
<section class="card exchange" aria-label="Request and response">
<div class="request"><span class="badge m-${escape(request.method.toLowerCase())}">${escape(request.method)}</span> <code class="url">${escape(request.url)}</code>
<details><summary>Request headers</summary><pre class="headers">${headerLines(request.headers)}</pre></details></div>
<pre class="response" id="response"><span class="status s-${Math.floor(response.status / 100)}xx">HTTP ${response.status} ${escape(response.statusText)}</span>
${headerLines(response.headers)}

${jsonHtml(response.body)}</pre>
${pager(view)}
</section>
${forms(view)}
<section class="card result" id="result" hidden aria-live="polite"><h2>Response</h2><pre id="result-body"></pre></section>
</main>
${filters(view)}`,
  });
}
