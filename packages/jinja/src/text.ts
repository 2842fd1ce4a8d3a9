/**
 * Text filters that port a Python routine: wordwrap (textwrap), truncate, indent, title, striptags (markupsafe),
 * urlencode (urllib.parse.quote), xmlattr, escape, filesizeformat.
 */
import { dictItems } from './dicts.js';
import { PyError, raise } from './errors.js';
import { formatFixed } from './decimal.js';
import {
  charge,
  chargeList,
  chargeStr,
  concatenated,
  countMatches,
  ITEM_BYTES,
  joined,
  listBytes,
  replaceCharged,
  sliceBytes,
  strBytes,
} from './meter.js';
import { toList } from './protocol.js';
import { intStr, pyStr } from './python.js';
import { chars, splitLines, strLength, strip, substring } from './pystring.js';
import { isDict, Undefined } from './values.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
const HTML_SPECIAL = /[&<>"']/g;

/** markupsafe.escape. */
export function escapeHtml(s: string): string {
  return replaceCharged(s, HTML_SPECIAL, (c) => HTML_ESCAPES[c]);
}

/**
 * A split by a regular expression with a capturing group (separators kept), charged before it is made: its matches
 * are counted first.
 */
function splitCharged(s: string, separators: RegExp, global: RegExp): string[] {
  const parts = 2 * countMatches(global, s) + 1;
  charge(parts * (ITEM_BYTES + strBytes(12)) + listBytes(parts));
  return s.split(separators);
}

const TITLE_SEPARATORS = /([-\s({[<]+)/u;
const TITLE_SEPARATORS_G = /[-\s({[<]+/gu;

/** Jinja's title filter (not Python's str.title: words start after spaces, dashes and brackets only). */
export function title(s: string): string {
  const items = splitCharged(s, TITLE_SEPARATORS, TITLE_SEPARATORS_G).filter((item) => item !== '');
  chargeList(items.length);
  return joined(
    items.map((item) => {
      const [first, ...rest] = chars(item);
      chargeList(rest.length);
      const tail = joined(rest);
      chargeStr(tail.length);
      return concatenated([first.toUpperCase(), tail.toLowerCase()]);
    }),
  );
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
const NON_SPACE_G = new RegExp(NWS, 'gu');
const WORDSEP_G = new RegExp(WORDSEP.source, 'gu');
const WORDSEP_SIMPLE_G = new RegExp(WORDSEP_SIMPLE.source, 'gu');

/** textwrap.wrap(text, width, expand_tabs=False, replace_whitespace=False, ...). */
function wrap(text: string, width: number, breakLongWords: boolean, breakOnHyphens: boolean): string[] {
  if (width <= 0) raise('ValueError', `invalid width ${width} (must be > 0)`);
  // Broken to the width, its lines hold every other character, `width` at most each: charged before the text is
  // split (a word of millions of characters, wrapped at 1, is refused before its split runs).
  if (breakLongWords) charge(ITEM_BYTES * Math.floor(countMatches(NON_SPACE_G, text) / width));
  const blank = (c: string) => strip(c, null, 'both') === '';
  const all = breakOnHyphens
    ? splitCharged(text, WORDSEP, WORDSEP_G)
    : splitCharged(text, WORDSEP_SIMPLE, WORDSEP_SIMPLE_G);
  chargeList(all.length);
  const chunks = all.filter((c) => c !== '').reverse();
  const lines: string[] = [];
  while (chunks.length > 0) {
    const line: string[] = [];
    let len = 0;
    if (lines.length > 0 && blank(chunks[chunks.length - 1])) chunks.pop();
    while (chunks.length > 0 && len + strLength(chunks[chunks.length - 1]) <= width) {
      const c = chunks.pop() as string;
      charge(ITEM_BYTES);
      line.push(c);
      len += strLength(c);
    }
    if (chunks.length > 0 && strLength(chunks[chunks.length - 1]) > width) {
      const spaceLeft = width - len;
      if (breakLongWords) {
        // Slices of the word, not a copy of its characters per line: V8 shares a long slice's characters.
        const word = chunks[chunks.length - 1];
        const length = strLength(word);
        let end = spaceLeft;
        if (breakOnHyphens && length > spaceLeft) {
          const head = substring(word, 0, spaceLeft);
          // In UTF-16 units: the code points before it are where the line may break.
          const hyphen = head.lastIndexOf('-');
          if (hyphen > 0 && /[^-]/.test(head.slice(0, hyphen))) end = strLength(head.slice(0, hyphen)) + 1;
        }
        line.push(substring(word, 0, end));
        chunks[chunks.length - 1] = substring(word, end, length);
      } else if (line.length === 0) {
        line.push(chunks.pop() as string);
      }
    }
    if (line.length > 0 && blank(line[line.length - 1])) line.pop();
    if (line.length > 0) {
      charge(ITEM_BYTES);
      lines.push(joined(line));
    }
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
  const lines = splitLines(s);
  chargeList(lines.length);
  return joined(
    lines.map((line) => joined(wrap(line, width, breakLongWords, breakOnHyphens), wrapstring)),
    wrapstring,
  );
}

export function truncate(s: string, length: number, killwords: boolean, end: string, leeway: number): string {
  if (length < strLength(end)) raise('ValueError', `expected length >= ${strLength(end)}, got ${length}`);
  if (leeway < 0) raise('ValueError', `expected leeway >= 0, got ${leeway}`);
  if (strLength(s) <= length + leeway) return s;
  const head = substring(s, 0, Math.max(0, length - strLength(end)));
  if (killwords) return concatenated([head, end]);
  const space = head.lastIndexOf(' ');
  return concatenated([space < 0 ? head : head.slice(0, space), end]);
}

export function indent(s: string, indention: string, first: boolean, blank: boolean): string {
  const lines = splitLines(s + '\n');
  let rv: string;
  if (blank) rv = joined(lines, '\n' + indention);
  else {
    rv = lines.shift() ?? '';
    if (lines.length > 0) {
      chargeList(lines.length);
      // Each indented line is a rope of the indention and the line; the join copies both.
      const indented = lines.map((line) => (line ? concatenated([indention, line]) : line));
      rv = concatenated([rv, '\n', joined(indented, '\n')]);
    }
  }
  return first ? concatenated([indention, rv]) : rv;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** markupsafe's striptags: drop comments and tags, collapse whitespace, unescape entities. */
export function striptags(s: string): string {
  let value = s;
  // A comment removed can join the text around it into a new comment start, so each removal searches again (and
  // copies the text: charged).
  for (let start = value.indexOf('<!--'); start !== -1; start = value.indexOf('<!--')) {
    const end = value.indexOf('-->', start);
    if (end === -1) break;
    chargeStr(value.length);
    value = value.slice(0, start) + value.slice(end + 3);
  }
  // Tags cannot: one pass keeps the text between them.
  const kept: string[] = [];
  let pos = 0;
  for (let start = value.indexOf('<'); start !== -1; start = value.indexOf('<', pos)) {
    const end = value.indexOf('>', start);
    if (end === -1) break;
    charge(ITEM_BYTES + sliceBytes(start - pos));
    kept.push(value.slice(pos, start));
    pos = end + 1;
  }
  kept.push(value.slice(pos));
  value = joined(kept);
  const words = splitCharged(value, /\s+/u, /\s+/gu).filter((w) => w !== '');
  chargeList(words.length);
  return replaceCharged(joined(words, ' '), /&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, (all) => {
    const e = all.slice(1, -1);
    if (e[0] !== '#') return Object.hasOwn(ENTITIES, e) ? ENTITIES[e] : all;
    const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
  });
}

const QUOTED_PATH = /[^A-Za-z0-9_.\-~/]/g;
const QUOTED_QUERY = /[^A-Za-z0-9_.\-~]/g;

/** urllib.parse.quote of the UTF-8 bytes, as Jinja's url_quote (a space is + in a query). */
function urlQuote(v: unknown, forQuery: boolean): string {
  const text = pyStr(v);
  // The bytes as a string of one character a byte, then every byte but the safe ones as %XX.
  chargeStr(3 * text.length);
  const bytes = new TextEncoder().encode(text);
  const chunks: string[] = [];
  for (let i = 0; i < bytes.length; i += 8192) chunks.push(String.fromCharCode(...bytes.subarray(i, i + 8192)));
  return replaceCharged(joined(chunks), forQuery ? QUOTED_QUERY : QUOTED_PATH, (c) =>
    forQuery && c === ' ' ? '+' : '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'),
  );
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
  chargeList(items.length);
  return joined(
    items.map((item) => {
      const pair = toList(item);
      if (pair.length !== 2) raise('ValueError', `expected 2 values to unpack, got ${pair.length}`);
      return concatenated([urlQuote(pair[0], true), '=', urlQuote(pair[1], true)]);
    }),
    '&',
  );
}

export function xmlattr(d: unknown, autospace: boolean): string {
  if (!isDict(d)) raise('TypeError', 'xmlattr expects a mapping');
  const items: string[] = [];
  for (const [key, value] of dictItems(d)) {
    if (value === null || value instanceof Undefined) continue;
    const name = pyStr(key);
    if (/[\s/>=]/.test(name)) raise('ValueError', `Invalid character in attribute name: '${name}'`);
    charge(ITEM_BYTES);
    items.push(concatenated([escapeHtml(name), '="', escapeHtml(pyStr(value)), '"']));
  }
  const rv = joined(items, ' ');
  return autospace && rv ? concatenated([' ', rv]) : rv;
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
