import { hasControl, templateSegments, type Segment } from './template-text.js';

/** RFC 7230's token: what an HTTP header name may be. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The source cut into lines (at CRLF or LF, as NetBox's splitlines cuts them), each as its segments. */
function lines(source: string): Segment[][] {
  const out: Segment[][] = [[]];
  for (const segment of templateSegments(source)) {
    if (segment.template) {
      out[out.length - 1].push(segment);
      continue;
    }
    segment.text.split(/\r?\n/).forEach((text, i) => {
      if (i > 0) out.push([]);
      if (text) out[out.length - 1].push({ text, template: false });
    });
  }
  return out;
}

/** The part of a line before its first literal colon, and whether there is one. */
function namePart(line: Segment[]): { name: Segment[]; colon: boolean } {
  const name: Segment[] = [];
  for (const segment of line) {
    const colon = segment.template ? -1 : segment.text.indexOf(':');
    if (colon >= 0) {
      name.push({ text: segment.text.slice(0, colon), template: false });
      return { name, colon: true };
    }
    name.push(segment);
  }
  return { name, colon: false };
}

/**
 * Why a webhook's `additional_headers` cannot be sent, naming the line: each line that is not empty must be
 * `Name: Value` with a valid header name, and no literal text may hold a control character but tab (a lone CR
 * would start another header). Where a template makes the name, or the whole line, it is checked at delivery.
 */
export function additionalHeadersProblem(source: string): string | undefined {
  for (const [i, line] of lines(source).entries()) {
    const n = i + 1;
    const literal = line.filter((s) => !s.template).map((s) => s.text).join('');
    if (hasControl(literal, true)) return `Line ${n}: headers may not contain control characters other than tab.`;
    const templated = line.some((s) => s.template);
    if (!templated && !literal.trim()) continue;
    const { name, colon } = namePart(line);
    if (!colon) {
      if (templated) continue;
      return `Line ${n}: expected "Name: Value", got "${literal.trim()}".`;
    }
    if (name.some((s) => s.template)) continue;
    const text = name.map((s) => s.text).join('').trim();
    if (!text) return `Line ${n}: the header has no name.`;
    if (!HEADER_NAME.test(text)) return `Line ${n}: "${text}" is not a valid HTTP header name.`;
  }
  return undefined;
}
