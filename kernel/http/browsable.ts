import type { Json } from '../model/types.js';
import { escapeHtml as escape } from './text.js';


function toHtml(value: Json, indent: string): string {
  if (value === null) return '<span class="null">null</span>';
  if (typeof value === 'string') {
    const text = escape(JSON.stringify(value));
    return /^https?:\/\/\S+$/.test(value) ? `<a href="${escape(value)}">${text}</a>` : `<span class="str">${text}</span>`;
  }
  if (typeof value !== 'object') return `<span class="lit">${String(value)}</span>`;
  const inner = indent + '    ';
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return `[\n${value.map((v) => inner + toHtml(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (!entries.length) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}<span class="key">${escape(JSON.stringify(k))}</span>: ${toHtml(v, inner)}`).join(',\n')}\n${indent}}`;
}

/** `path` (with its query) asking for JSON instead: its other parameters kept. */
function asJson(path: string): string {
  const url = new URL(path, 'http://page');
  url.searchParams.set('format', 'json');
  return `${url.pathname}${url.search}`;
}

/** The browsable API: the JSON response as a page with clickable links. */
export function browsablePage(opts: { title: string; method: string; path: string; status: number; body: Json; user: string }): string {
  const who = opts.user
    ? `Logged in as ${escape(opts.user)} · <a href="/logout/">Log out</a>`
    : `<a href="/login/?next=${encodeURIComponent(opts.path)}">Log in</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(opts.title)} – Patchbay API</title><link rel="icon" href="data:,">
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f6f7f9;color:#222}
header{background:#1d3557;color:#fff;padding:.6rem 1.2rem;display:flex;justify-content:space-between}
header a{color:#fff;text-decoration:none;font-weight:600}
main{padding:1rem 1.2rem}h1{font-size:1.3rem}
pre{background:#fff;border:1px solid #dde;padding:1rem;overflow:auto;font-size:.85rem}
.key{color:#6a1b9a}.str{color:#2e7d32}.lit{color:#c62828}.null{color:#777}.req{color:#555}
</style></head><body>
<header><a href="/api/">Patchbay API</a><span>${who}</span></header>
<main><h1>${escape(opts.title)}</h1>
<p class="req"><b>${escape(opts.method)}</b> ${escape(opts.path)} → HTTP ${opts.status}</p>
<pre>${toHtml(opts.body, '')}</pre>
<p><a href="${escape(asJson(opts.path))}">View as JSON</a></p>
</main></body></html>`;
}
