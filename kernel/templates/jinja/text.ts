/**
 * Text filters that port a Python routine: wordwrap (textwrap), truncate, indent, title, striptags (markupsafe),
 * urlencode (urllib.parse.quote), xmlattr, escape, filesizeformat.
 */
import { dictItems } from './dicts.js';
import { PyError, raise } from './errors.js';
import { formatFixed } from './decimal.js';
import { toList } from './protocol.js';
import { intStr, pyStr } from './python.js';
import { chars, splitLines, strLength, strip } from './pystring.js';
import { isDict, Undefined } from './values.js';

/** markupsafe.escape. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&#34;')
    .replace(/'/g, '&#39;');
}

/** Jinja's title filter (not Python's str.title: words start after spaces, dashes and brackets only). */
export function title(s: string): string {
  return s
    .split(/([-\s({[<]+)/u)
    .filter((item) => item !== '')
    .map((item) => {
      const [first, ...rest] = chars(item);
      return first.toUpperCase() + rest.join('').toLowerCase();
    })
    .join('');
}

const W = '[\\p{L}\\p{N}_]';
const WORD_PUNCT = `[\\p{L}\\p{N}_!"'&.,?]`;
const LETTER = '[\\p{L}\\p{Nl}\\p{No}_]';
const WS = '[\\t\\n\\v\\f\\r ]';
const NWS = '[^\\t\\n\\v\\f\\r ]';
/** textwrap.TextWrapper.wordsep_re. */
const WORDSEP = new RegExp(
  `(${WS}+|(?<=${WORD_PUNCT})-{2,}(?=${W})|${NWS}+?(?:-(?:(?<=${LETTER}{2}-)|(?<=${LETTER}-${LETTER}-))(?=${LETTER}-?${LETTER})|(?=${WS}|$)|(?<=${WORD_PUNCT})(?=-{2,}${W})))`,
  'u',
);
const WORDSEP_SIMPLE = new RegExp(`(${WS}+)`, 'u');

/** textwrap.wrap(text, width, expand_tabs=False, replace_whitespace=False, ...). */
function wrap(text: string, width: number, breakLongWords: boolean, breakOnHyphens: boolean): string[] {
  if (width <= 0) raise('ValueError', `invalid width ${width} (must be > 0)`);
  const blank = (c: string) => strip(c, null, 'both') === '';
  const chunks = text
    .split(breakOnHyphens ? WORDSEP : WORDSEP_SIMPLE)
    .filter((c) => c !== '')
    .reverse();
  const lines: string[] = [];
  while (chunks.length > 0) {
    const line: string[] = [];
    let len = 0;
    if (lines.length > 0 && blank(chunks[chunks.length - 1])) chunks.pop();
    while (chunks.length > 0 && len + strLength(chunks[chunks.length - 1]) <= width) {
      const c = chunks.pop() as string;
      line.push(c);
      len += strLength(c);
    }
    if (chunks.length > 0 && strLength(chunks[chunks.length - 1]) > width) {
      const spaceLeft = width - len;
      if (breakLongWords) {
        const chunk = chars(chunks[chunks.length - 1]);
        let end = spaceLeft;
        if (breakOnHyphens && chunk.length > spaceLeft) {
          const hyphen = chunk.slice(0, spaceLeft).lastIndexOf('-');
          if (hyphen > 0 && chunk.slice(0, hyphen).some((c) => c !== '-')) end = hyphen + 1;
        }
        line.push(chunk.slice(0, end).join(''));
        chunks[chunks.length - 1] = chunk.slice(end).join('');
      } else if (line.length === 0) {
        line.push(chunks.pop() as string);
      }
    }
    if (line.length > 0 && blank(line[line.length - 1])) line.pop();
    if (line.length > 0) lines.push(line.join(''));
  }
  return lines;
}

export function wordwrap(
  s: string,
  width: number,
  breakLongWords: boolean,
  wrapstring: string,
  breakOnHyphens: boolean,
): string {
  return splitLines(s)
    .map((line) => wrap(line, width, breakLongWords, breakOnHyphens).join(wrapstring))
    .join(wrapstring);
}

export function truncate(s: string, length: number, killwords: boolean, end: string, leeway: number): string {
  if (length < strLength(end)) raise('ValueError', `expected length >= ${strLength(end)}, got ${length}`);
  if (leeway < 0) raise('ValueError', `expected leeway >= 0, got ${leeway}`);
  if (strLength(s) <= length + leeway) return s;
  const head = chars(s)
    .slice(0, Math.max(0, length - strLength(end)))
    .join('');
  if (killwords) return head + end;
  const space = head.lastIndexOf(' ');
  return (space < 0 ? head : head.slice(0, space)) + end;
}

export function indent(s: string, indention: string, first: boolean, blank: boolean): string {
  const lines = splitLines(s + '\n');
  let rv: string;
  if (blank) rv = lines.join('\n' + indention);
  else {
    rv = lines.shift() ?? '';
    if (lines.length > 0) rv += '\n' + lines.map((line) => (line ? indention + line : line)).join('\n');
  }
  return first ? indention + rv : rv;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** markupsafe's striptags: drop comments and tags, collapse whitespace, unescape entities. */
export function striptags(s: string): string {
  let value = s;
  for (const [open, close] of [
    ['<!--', '-->'],
    ['<', '>'],
  ]) {
    for (let start = value.indexOf(open); start !== -1; start = value.indexOf(open)) {
      const end = value.indexOf(close, start);
      if (end === -1) break;
      value = value.slice(0, start) + value.slice(end + close.length);
    }
  }
  value = value
    .split(/\s+/u)
    .filter((w) => w !== '')
    .join(' ');
  return value.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, (all, e: string) => {
    if (e[0] !== '#') return Object.hasOwn(ENTITIES, e) ? ENTITIES[e] : all;
    const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
  });
}

/** urllib.parse.quote of the UTF-8 bytes, as Jinja's url_quote. */
function urlQuote(v: unknown, forQuery: boolean): string {
  const bytes = new TextEncoder().encode(pyStr(v));
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out +=
      /[A-Za-z0-9_.\-~]/.test(c) || (!forQuery && c === '/') ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return forQuery ? out.replace(/%20/g, '+') : out;
}

export function urlencode(v: unknown): string {
  if (typeof v === 'string') return urlQuote(v, false);
  let items: unknown[];
  try {
    items = isDict(v) ? dictItems(v) : toList(v);
  } catch (e) {
    if (e instanceof PyError && e.type === 'TypeError') return urlQuote(v, false);
    throw e;
  }
  return items
    .map((item) => {
      const pair = toList(item);
      if (pair.length !== 2) raise('ValueError', `expected 2 values to unpack, got ${pair.length}`);
      return `${urlQuote(pair[0], true)}=${urlQuote(pair[1], true)}`;
    })
    .join('&');
}

export function xmlattr(d: unknown, autospace: boolean): string {
  if (!isDict(d)) raise('TypeError', 'xmlattr expects a mapping');
  const items: string[] = [];
  for (const [key, value] of dictItems(d)) {
    if (value === null || value instanceof Undefined) continue;
    const name = pyStr(key);
    if (/[\s/>=]/.test(name)) raise('ValueError', `Invalid character in attribute name: '${name}'`);
    items.push(`${escapeHtml(name)}="${escapeHtml(pyStr(value))}"`);
  }
  const rv = items.join(' ');
  return autospace && rv ? ' ' + rv : rv;
}

export function filesizeformat(bytes: number, binary: boolean): string {
  const base = binary ? 1024 : 1000;
  const prefixes = binary
    ? ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB']
    : ['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
  if (bytes === 1) return '1 Byte';
  if (bytes < base) return `${intStr(Math.trunc(bytes))} Bytes`;
  let i = 0;
  while (i < prefixes.length - 1 && bytes >= base ** (i + 2)) i++;
  return `${formatFixed((base * bytes) / base ** (i + 2), 1)} ${prefixes[i]}`;
}
