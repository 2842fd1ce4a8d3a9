/**
 * Jinja2's lexer (jinja2/lexer.py) ported rule for rule, producing tokens for nunjucks' parser. nunjucks' own
 * tokenizer differs from Jinja in whitespace control (lstrip_blocks and trim_blocks on comments, `{%+`, `+%}`), string
 * escapes, number syntax and newline handling, all of which change the output, so only its token format is kept.
 * Whitespace control is done here, as Jinja does, so the parser never strips anything.
 */
import { TemplateError } from './errors.js';
import { T, type Token } from './nunjucks.js';

export interface Syntax {
  blockStart: string;
  blockEnd: string;
  variableStart: string;
  variableEnd: string;
  commentStart: string;
  commentEnd: string;
  lineStatementPrefix: string | null;
  lineCommentPrefix: string | null;
  trimBlocks: boolean;
  lstripBlocks: boolean;
  keepTrailingNewline: boolean;
  newlineSequence: string;
}

const esc = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

const WHITESPACE = /\s+/y;
const FLOAT = /(?<!\.)(\d+_)*\d+((\.(\d+_)*\d+)?e[+-]?(\d+_)*\d+|\.(\d+_)*\d+)/iy;
const INTEGER = /(0b(_?[0-1])+|0o(_?[0-7])+|0x(_?[\da-f])+|[1-9](_?\d)*|0(_?0)*)/iy;
const NAME = /[\p{L}\p{N}\p{M}\p{Pc}\u00b7]+/uy;
const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;
const STRING = /('([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)")/sy;
const OPERATOR = /\/\/|\*\*|==|!=|>=|<=|[+\-/*%~[\](){}=.:|,;<>]/y;

const PUNCTUATION: Record<string, string> = {
  '(': T.TOKEN_LEFT_PAREN,
  ')': T.TOKEN_RIGHT_PAREN,
  '[': T.TOKEN_LEFT_BRACKET,
  ']': T.TOKEN_RIGHT_BRACKET,
  '{': T.TOKEN_LEFT_CURLY,
  '}': T.TOKEN_RIGHT_CURLY,
  ',': T.TOKEN_COMMA,
  ':': T.TOKEN_COLON,
  '~': T.TOKEN_TILDE,
  '|': T.TOKEN_PIPE,
};

type Begin =
  | 'raw_begin'
  | 'comment_begin'
  | 'block_begin'
  | 'variable_begin'
  | 'linestatement_begin'
  | 'linecomment_begin';

interface Rules {
  root: RegExp;
  blockEnd: RegExp;
  variableEnd: RegExp;
  comment: RegExp;
  raw: RegExp;
  lineStatementEnd: RegExp;
  lineComment: RegExp;
}

function rules(s: Syntax): Rules {
  const [bs, be, vs, ve, cs, ce] = [
    s.blockStart,
    s.blockEnd,
    s.variableStart,
    s.variableEnd,
    s.commentStart,
    s.commentEnd,
  ].map(esc);
  const suffix = s.trimBlocks ? '\\n?' : '';
  const begins: [number, Begin, string][] = [
    [s.commentStart.length, 'comment_begin', cs],
    [s.blockStart.length, 'block_begin', bs],
    [s.variableStart.length, 'variable_begin', vs],
  ];
  if (s.lineStatementPrefix !== null) {
    begins.push([s.lineStatementPrefix.length, 'linestatement_begin', `^[ \\t\\v]*${esc(s.lineStatementPrefix)}`]);
  }
  if (s.lineCommentPrefix !== null) {
    begins.push([
      s.lineCommentPrefix.length,
      'linecomment_begin',
      `(?:^|(?<=\\S))[^\\S\\r\\n]*${esc(s.lineCommentPrefix)}`,
    ]);
  }
  // Jinja sorts (length, name) descending so that a longer delimiter wins over its prefix.
  begins.sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1));
  const alternatives = [
    `(?<raw_begin>${bs}(?<raw_begin_sign>\\-|\\+|)\\s*raw\\s*(?:\\-${be}\\s*|${be}))`,
    ...begins.map(([, name, re]) => `(?<${name}>${re}(?<${name}_sign>\\-|\\+|))`),
  ];
  return {
    root: new RegExp(`(.*?)(?:${alternatives.join('|')})`, 'msy'),
    blockEnd: new RegExp(`(?:\\+${be}|\\-${be}\\s*|${be}${suffix})`, 'sy'),
    variableEnd: new RegExp(`\\-${ve}\\s*|${ve}`, 'sy'),
    comment: new RegExp(`(.*?)((?:\\+${ce}|\\-${ce}\\s*|${ce}${suffix}))`, 'sy'),
    raw: new RegExp(`(.*?)((?:${bs}(\\-|\\+|))\\s*endraw\\s*(?:\\+${be}|\\-${be}\\s*|${be}${suffix}))`, 'sy'),
    lineStatementEnd: /\s*(\n|$)/my,
    lineComment: /(.*?)()(?=\n|$)/msy,
  };
}

const cache = new Map<string, Rules>();

function rulesFor(s: Syntax): Rules {
  const key = JSON.stringify(s);
  let r = cache.get(key);
  if (r === undefined) {
    if (cache.size >= 16) cache.clear();
    cache.set(key, (r = rules(s)));
  }
  return r;
}

function match(re: RegExp, source: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(source);
}

const count = (s: string) => s.split('\n').length - 1;

/** Python's unicode-escape decoding of a string literal (non-ASCII characters first become escapes, as in Jinja). */
function unescape(body: string, fail: (message: string) => never): string {
  const ascii = body.replace(/[^\x00-\x7f]/gu, (c) => {
    const cp = c.codePointAt(0) ?? 0;
    return cp < 0x100
      ? `\\x${cp.toString(16).padStart(2, '0')}`
      : cp < 0x10000
        ? `\\u${cp.toString(16).padStart(4, '0')}`
        : `\\U${cp.toString(16).padStart(8, '0')}`;
  });
  const simple: Record<string, string> = {
    '\\': '\\',
    "'": "'",
    '"': '"',
    a: '\x07',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\n': '',
  };
  return ascii.replace(/\\(x[\s\S]{0,2}|u[\s\S]{0,4}|U[\s\S]{0,8}|[0-7]{1,3}|N\{[^}]*\}|[\s\S])/g, (all, e: string) => {
    if (e in simple && e.length === 1) return simple[e];
    if (/^[0-7]/.test(e)) return String.fromCodePoint(parseInt(e, 8));
    const width = { x: 2, u: 4, U: 8 }[e[0]];
    if (width !== undefined) {
      const hex = e.slice(1);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) fail(`truncated \\${e[0]}${'X'.repeat(width)} escape`);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) fail('illegal Unicode character');
      return String.fromCodePoint(cp);
    }
    if (e.startsWith('N{')) fail('unknown Unicode character name');
    return all;
  });
}

/** Whitespace control before a tag: `-` strips all, lstrip_blocks strips the line's indentation (unless `+`). */
function stripBefore(
  text: string,
  sign: string,
  lstrip: boolean,
  lineStarting: boolean,
): { text: string; newlines: number } {
  if (sign === '-') {
    const stripped = text.replace(/\s+$/, '');
    return { text: stripped, newlines: count(text.slice(stripped.length)) };
  }
  if (sign !== '+' && lstrip) {
    const lpos = text.lastIndexOf('\n') + 1;
    if ((lpos > 0 || lineStarting) && /^\s+$/.test(text.slice(lpos))) return { text: text.slice(0, lpos), newlines: 0 };
  }
  return { text, newlines: 0 };
}

export function tokenize(source: string, syntax: Syntax): Token[] {
  const r = rulesFor(syntax);
  const lines = source.split(/\r\n|\r|\n/);
  if (!syntax.keepTrailingNewline && lines.at(-1) === '') lines.pop();
  const src = lines.join('\n');
  const tokens: Token[] = [];
  const stack: string[] = ['root'];
  const balancing: string[] = [];
  let pos = 0;
  let lineno = 0;
  let lineStarting = true;
  const push = (type: string, value: string, at: number) => {
    tokens.push({ type, value, lineno, colno: at - (src.lastIndexOf('\n', at - 1) + 1) });
  };
  const data = (text: string) => text.replace(/\n/g, syntax.newlineSequence);
  const fail: (message: string) => never = (message) => {
    throw new TemplateError(message, lineno + 1);
  };

  for (;;) {
    const state = stack[stack.length - 1];
    // At the end only a line statement's end (`$`) can still match.
    if (pos >= src.length && state !== 'linestatement_begin') break;
    let m: RegExpExecArray | null;
    if (state === 'root') {
      m = match(r.root, src, pos);
      if (m === null) {
        push(T.TOKEN_DATA, data(src.slice(pos)), pos);
        lineno += count(src.slice(pos));
        pos = src.length;
        break;
      }
      const groups = m.groups ?? {};
      const begin = (Object.keys(groups) as Begin[]).find((k) => !k.endsWith('_sign') && groups[k] !== undefined);
      if (begin === undefined) throw new Error('lexer: no delimiter matched');
      const sign = groups[`${begin}_sign`] ?? '';
      const lstrip = syntax.lstripBlocks && begin !== 'variable_begin';
      const { text, newlines } = stripBefore(m[1], sign, lstrip, lineStarting);
      if (text !== '') push(T.TOKEN_DATA, data(text), pos);
      lineno += count(text) + newlines;
      const at = pos + m[1].length;
      if (begin === 'block_begin' || begin === 'linestatement_begin') push(T.TOKEN_BLOCK_START, '{%', at);
      else if (begin === 'variable_begin') push(T.TOKEN_VARIABLE_START, '{{', at);
      lineno += count(groups[begin] ?? '');
      stack.push(begin);
    } else if (state === 'comment_begin' || state === 'linecomment_begin') {
      m = match(state === 'comment_begin' ? r.comment : r.lineComment, src, pos);
      if (m === null) fail('Missing end of comment tag');
      lineno += count(m[0]);
      stack.pop();
    } else if (state === 'raw_begin') {
      m = match(r.raw, src, pos);
      if (m === null) fail('Missing end of raw directive');
      const { text, newlines } = stripBefore(m[1], m[3], syntax.lstripBlocks, lineStarting);
      if (text !== '') push(T.TOKEN_DATA, data(text), pos);
      lineno += count(text) + newlines + count(m[2]);
      stack.pop();
    } else {
      m =
        balancing.length > 0
          ? null
          : match(
              state === 'variable_begin' ? r.variableEnd : state === 'block_begin' ? r.blockEnd : r.lineStatementEnd,
              src,
              pos,
            );
      if (m !== null) {
        push(
          state === 'variable_begin' ? T.TOKEN_VARIABLE_END : T.TOKEN_BLOCK_END,
          state === 'variable_begin' ? '}}' : '%}',
          pos,
        );
        lineno += count(m[0]);
        stack.pop();
      } else {
        m = pos < src.length ? tagToken(src, pos, lineno, tokens, balancing, data, fail) : null;
        if (m === null) {
          if (pos >= src.length) break;
          fail(`unexpected char ${JSON.stringify(src[pos])} at ${pos}`);
        }
        lineno += count(m[0]);
      }
    }
    if (m === null) break;
    lineStarting = m[0].endsWith('\n');
    if (m[0].length === 0 && stack[stack.length - 1] === state) throw new Error('lexer: no progress');
    pos += m[0].length;
  }
  return tokens;
}

/** One token inside `{{ }}`/`{% %}`: whitespace, number, name, string or operator. */
function tagToken(
  src: string,
  pos: number,
  lineno: number,
  tokens: Token[],
  balancing: string[],
  data: (text: string) => string,
  fail: (message: string) => never,
): RegExpExecArray | null {
  const colno = pos - (src.lastIndexOf('\n', pos - 1) + 1);
  const push = (type: string, value: string) => tokens.push({ type, value, lineno, colno });
  let m: RegExpExecArray | null;
  if ((m = match(WHITESPACE, src, pos))) return m;
  if ((m = match(FLOAT, src, pos))) {
    push(T.TOKEN_FLOAT, m[0].replace(/_/g, ''));
    return m;
  }
  if ((m = match(INTEGER, src, pos))) {
    const digits = m[0].replace(/_/g, '').toLowerCase();
    const value = /^0[box]/.test(digits) ? BigInt(digits) : BigInt(digits.replace(/^0+(?=\d)/, ''));
    push(T.TOKEN_INT, value.toString());
    return m;
  }
  if ((m = match(NAME, src, pos))) {
    if (!IDENTIFIER.test(m[0])) fail('Invalid character in identifier');
    push(T.TOKEN_SYMBOL, m[0]);
    return m;
  }
  if ((m = match(STRING, src, pos))) {
    push(T.TOKEN_STRING, unescape(data(m[0].slice(1, -1)), fail));
    return m;
  }
  if ((m = match(OPERATOR, src, pos))) {
    const op = m[0];
    const closer = { '(': ')', '[': ']', '{': '}' }[op];
    if (closer !== undefined) balancing.push(closer);
    else if (op === ')' || op === ']' || op === '}') {
      if (balancing.length === 0) fail(`unexpected '${op}'`);
      const expected = balancing.pop();
      if (expected !== op) fail(`unexpected '${op}', expected '${expected}'`);
    }
    push(PUNCTUATION[op] ?? T.TOKEN_OPERATOR, op);
    return m;
  }
  return null;
}
