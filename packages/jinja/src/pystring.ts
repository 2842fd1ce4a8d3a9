/** Python `str` semantics JavaScript strings lack: code point indexing, Python's whitespace, repr quoting. */
import { charge, chargeList, concatenated, ITEM_BYTES, joined, replaceCharged, sliceBytes } from './meter.js';

/** Characters Python's `str.isspace()`, `split()` and `strip()` treat as whitespace. */
const WS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SPACES = new RegExp(`^[${WS}]+$`, 'u');
const WORDS = new RegExp(`[^${WS}]+`, 'gu');
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

const SURROGATE = /[\ud800-\udfff]/;
const TWO_BYTE = /[^\x00-\xff]/;

/** Whether UTF-16 units and code points differ in `s` (most strings: no). */
export function hasSurrogates(s: string): boolean {
  return SURROGATE.test(s);
}

/** Python's `len()` of a string: code points, not UTF-16 units. Counted without allocating. */
export function strLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The string's code points (Python's indexable characters). */
export function chars(s: string): string[] {
  // V8 shares one-character strings of one-byte characters; others are new strings.
  chargeList(s.length);
  if (TWO_BYTE.test(s)) charge(s.length * 2 * ITEM_BYTES);
  return SURROGATE.test(s) ? Array.from(s) : s.split('');
}

/** Python's `s[from:to]` (code points, clamped bounds as given). */
export function substring(s: string, from: number, to: number): string {
  if (!SURROGATE.test(s)) {
    charge(sliceBytes(Math.max(0, to - from)));
    return s.slice(from, to);
  }
  return joined(chars(s).slice(from, to));
}

export function isSpace(s: string): boolean {
  return SPACES.test(s);
}

/** Python's `str.strip(chars)` family; `which` picks the ends. */
export function strip(s: string, stripChars: string | null, which: 'both' | 'left' | 'right'): string {
  // Code points only matter when either string has a surrogate; otherwise the units are the characters.
  const units = !SURROGATE.test(s) && (stripChars === null || !SURROGATE.test(stripChars));
  const set = stripChars === null || units ? null : new Set(chars(stripChars));
  const cs = units ? s : chars(s);
  const drop = (c: string) =>
    stripChars === null ? isSpace(c) : set === null ? stripChars.includes(c) : set.has(c);
  let start = 0;
  let end = cs.length;
  if (which !== 'right') while (start < end && drop(cs[start])) start++;
  if (which !== 'left') while (end > start && drop(cs[end - 1])) end--;
  if (typeof cs === 'string') {
    charge(sliceBytes(end - start));
    return cs.slice(start, end);
  }
  return joined(cs.slice(start, end));
}

/** Python's `str.split()`/`rsplit()` without a separator: runs of whitespace split, at most `maxsplit` times. */
export function splitWhitespace(s: string, maxsplit: number, fromRight: boolean): string[] {
  // The words' bounds first (two numbers a word, charged as found), then the strings.
  const bounds: number[] = [];
  WORDS.lastIndex = 0;
  for (let m = WORDS.exec(s); m !== null; m = WORDS.exec(s)) {
    charge(2 * ITEM_BYTES);
    bounds.push(m.index, m.index + m[0].length);
  }
  const count = bounds.length / 2;
  const out: string[] = [];
  const part = (start: number, end: number) => {
    charge(ITEM_BYTES + sliceBytes(end - start));
    out.push(s.slice(start, end));
  };
  const words = (from: number, to: number) => {
    for (let i = from; i < to; i++) part(bounds[2 * i], bounds[2 * i + 1]);
  };
  if (maxsplit < 0 || count <= maxsplit) words(0, count);
  else if (!fromRight) {
    // The unsplit remainder keeps its inner and outer whitespace, as in Python.
    words(0, maxsplit);
    part(bounds[2 * maxsplit], s.length);
  } else {
    part(0, bounds[2 * (count - maxsplit - 1) + 1]);
    words(count - maxsplit, count);
  }
  return out;
}

/** Python's `str.splitlines(keepends)`. */
export function splitLines(s: string, keepends = false): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest !== '') {
    const m = LINE_BREAK.exec(rest);
    if (!m) {
      charge(ITEM_BYTES);
      out.push(rest);
      break;
    }
    const end = keepends ? m.index + m[0].length : m.index;
    charge(ITEM_BYTES + sliceBytes(end));
    out.push(rest.slice(0, end));
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

/** What repr() may escape: quotes, backslashes and Python's unprintable characters (but the space). */
const REPR_ESCAPED = /[\\'"\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/gu;

/** Python's `repr()` of a string, in one replacement pass (appending a character at a time makes a rope cell each). */
export function reprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = replaceCharged(s, REPR_ESCAPED, (c) => {
    if (c === quote || c === '\\') return '\\' + c;
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    if (c === ' ' || c === "'" || c === '"') return c;
    return hexEscape(c.codePointAt(0) ?? 0);
  });
  return concatenated([quote, body, quote]);
}

function hexEscape(cp: number): string {
  if (cp < 0x100) return '\\x' + cp.toString(16).padStart(2, '0');
  if (cp < 0x10000) return '\\u' + cp.toString(16).padStart(4, '0');
  return '\\U' + cp.toString(16).padStart(8, '0');
}

/** Python's code point ordering of strings (JavaScript compares UTF-16 units). */
export function compareStr(a: string, b: string): number {
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  // Code point by code point, in place (sorting calls this often).
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(j) ?? 0;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}

export function isCased(c: string): boolean {
  return c.toLowerCase() !== c.toUpperCase();
}

/** Python's `str.isupper()`/`islower()`: some cased character, and all of them in that case. */
export function isAllCase(s: string, want: 'upper' | 'lower'): boolean {
  let cased = false;
  for (const c of s) {
    if (!isCased(c)) continue;
    if (c !== (want === 'upper' ? c.toUpperCase() : c.toLowerCase())) return false;
    cased = true;
  }
  return cased;
}
