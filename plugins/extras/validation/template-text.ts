/** A run of a Jinja2 template's source: literal text, or a tag (`{{ … }}`, `{% … %}`, `{# … #}`) whose output is unknown. */
export interface Segment {
  text: string;
  template: boolean;
}

const CLOSERS: Record<string, string> = { '{': '}}', '%': '%}', '#': '#}' };

/**
 * A template's source cut into literal text and tags (Jinja2's default delimiters, which webhooks use), so that
 * write-time checks judge only what the literal text decides. An unclosed tag runs to the end (it fails at render).
 */
export function templateSegments(source: string): Segment[] {
  const segments: Segment[] = [];
  const opening = /\{[{%#]/g;
  let at = 0;
  while (at < source.length) {
    opening.lastIndex = at;
    const open = opening.exec(source);
    const start = open ? open.index : source.length;
    if (start > at) segments.push({ text: source.slice(at, start), template: false });
    if (!open) break;
    const close = source.indexOf(CLOSERS[open[0][1]], start + 2);
    at = close < 0 ? source.length : close + 2;
    segments.push({ text: source.slice(start, at), template: true });
  }
  return segments;
}

/** Control characters (C0, DEL, C1); `allowTab` leaves the tab, which header values may hold. */
export function hasControl(text: string, allowTab = false): boolean {
  return (allowTab ? /[\x00-\x08\x0a-\x1f\x7f-\x9f]/ : /[\x00-\x1f\x7f-\x9f]/).test(text);
}
