import { escapeHtml as escape, type Json } from 'patchbay';

const LINK = /^https?:\/\/\S+$/;

/**
 * A JSON value pretty-printed as HTML (four spaces, as DRF's browsable API), every text escaped, URLs as links,
 * and each kind of value in its own class for colour.
 */
export function jsonHtml(value: Json, indent = ''): string {
  if (value === null) return '<span class="j-null">null</span>';
  if (typeof value === 'string') {
    const text = escape(JSON.stringify(value));
    return LINK.test(value) ? `<a class="j-link" href="${escape(value)}">${text}</a>` : `<span class="j-str">${text}</span>`;
  }
  if (typeof value === 'number') return `<span class="j-num">${String(value)}</span>`;
  if (typeof value === 'boolean') return `<span class="j-bool">${String(value)}</span>`;
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return `[\n${value.map((v) => inner + jsonHtml(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (!entries.length) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}<span class="j-key">${escape(JSON.stringify(k))}</span>: ${jsonHtml(v, inner)}`).join(',\n')}\n${indent}}`;
}
