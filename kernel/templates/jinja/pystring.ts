/** Python `str` semantics JavaScript strings lack: code point indexing, Python's whitespace, repr quoting. */

/** Characters Python's `str.isspace()`, `split()` and `strip()` treat as whitespace. */
const WS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SPACES = new RegExp(`^[${WS}]+$`, 'u');
const WORDS = new RegExp(`[^${WS}]+`, 'gu');
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

const SURROGATE = /[\ud800-\udfff]/;

/** Python's `len()` of a string: code points, not UTF-16 units. */
export function strLength(s: string): number {
  return SURROGATE.test(s) ? Array.from(s).length : s.length;
}

/** The string's code points (Python's indexable characters). */
export function chars(s: string): string[] {
  return SURROGATE.test(s) ? Array.from(s) : s.split('');
}

export function isSpace(s: string): boolean {
  return SPACES.test(s);
}

/** Python's `str.strip(chars)` family; `which` picks the ends. */
export function strip(s: string, stripChars: string | null, which: 'both' | 'left' | 'right'): string {
  const set = stripChars === null ? null : new Set(chars(stripChars));
  const cs = chars(s);
  const drop = (c: string) => (set === null ? isSpace(c) : set.has(c));
  let start = 0;
  let end = cs.length;
  if (which !== 'right') while (start < end && drop(cs[start])) start++;
  if (which !== 'left') while (end > start && drop(cs[end - 1])) end--;
  return cs.slice(start, end).join('');
}

/** Python's `str.split()`/`rsplit()` without a separator: runs of whitespace split, at most `maxsplit` times. */
export function splitWhitespace(s: string, maxsplit: number, fromRight: boolean): string[] {
  const words = [...s.matchAll(WORDS)];
  if (maxsplit < 0 || words.length <= maxsplit) return words.map((m) => m[0]);
  // The unsplit remainder keeps its inner and outer whitespace, as in Python.
  if (!fromRight) return [...words.slice(0, maxsplit).map((m) => m[0]), s.slice(words[maxsplit].index)];
  const last = words[words.length - maxsplit - 1];
  return [s.slice(0, last.index + last[0].length), ...words.slice(words.length - maxsplit).map((m) => m[0])];
}

/** Python's `str.splitlines(keepends)`. */
export function splitLines(s: string, keepends = false): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest !== '') {
    const m = LINE_BREAK.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    out.push(rest.slice(0, keepends ? m.index + m[0].length : m.index));
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

/** Python's `repr()` of a string. */
export function reprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of s) {
    if (c === quote || c === '\\') out += '\\' + c;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (isPrintable(c)) out += c;
    else out += hexEscape(c.codePointAt(0) ?? 0);
  }
  return out + quote;
}

const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function isPrintable(c: string): boolean {
  return c === ' ' || !UNPRINTABLE.test(c);
}

function hexEscape(cp: number): string {
  if (cp < 0x100) return '\\x' + cp.toString(16).padStart(2, '0');
  if (cp < 0x10000) return '\\u' + cp.toString(16).padStart(4, '0');
  return '\\U' + cp.toString(16).padStart(8, '0');
}

/** Python's code point ordering of strings (JavaScript compares UTF-16 units). */
export function compareStr(a: string, b: string): number {
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i].codePointAt(0) ?? 0) - (y[i].codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

export function isAlpha(c: string): boolean {
  return /^\p{L}$/u.test(c);
}

export function isCased(c: string): boolean {
  return c.toLowerCase() !== c.toUpperCase();
}

/** Python's `str.isupper()`/`islower()`: some cased character, and all of them in that case. */
export function isAllCase(s: string, want: 'upper' | 'lower'): boolean {
  const cased = chars(s).filter(isCased);
  return cased.length > 0 && cased.every((c) => (want === 'upper' ? c === c.toUpperCase() : c === c.toLowerCase()));
}
