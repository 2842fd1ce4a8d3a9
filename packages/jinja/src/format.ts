/** Python's string formatting: `format(value, spec)`, `str.format()` and printf-style `str % args`. */
import { formatExp, formatFixed, formatGeneral, floatRepr } from './decimal.js';
import { dictGet } from './dicts.js';
import { raise } from './errors.js';
import { MAX_REPEAT } from './limits.js';
import { charge, chargeStr, countOccurrences, MATCH_BYTES } from './meter.js';
import { intStr, pyRepr, pyStr, typeName } from './python.js';
import { strLength, substring } from './pystring.js';
import { isDict, isFloat, isNumber, isTuple, MISSING, PyRange, toNumber, Undefined, type Kwargs } from './values.js';

interface Spec {
  fill: string;
  align: string;
  sign: string;
  alt: boolean;
  zero: boolean;
  width: number;
  grouping: string;
  precision: number | null;
  type: string;
}

const SPEC = /^(?:(.)?([<>=^]))?([-+ ])?(z)?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/su;

/** Parses a format spec; `zeroAlign` is the alignment the `0` flag implies for the type (`=` numbers, `<` strings). */
function parseSpec(spec: string, zeroAlign: '=' | '<'): Spec {
  const m = SPEC.exec(spec);
  if (!m) raise('ValueError', 'Invalid format specifier');
  const zero = m[6] !== undefined && m[2] === undefined;
  return {
    fill: m[1] ?? (zero ? '0' : ' '),
    align: m[2] ?? (zero ? zeroAlign : ''),
    sign: m[3] ?? '-',
    alt: m[5] !== undefined,
    zero,
    width: m[7] ? Number(m[7]) : 0,
    grouping: m[8] ?? '',
    precision: m[9] !== undefined ? Number(m[9]) : null,
    type: m[10] ?? '',
  };
}

function pad(body: string, sign: string, s: Spec, defaultAlign: string): string {
  if (s.width > MAX_REPEAT) raise('OverflowError', `field width larger than ${MAX_REPEAT}`);
  const len = strLength(sign + body);
  if (len >= s.width) return sign + body;
  chargeStr(s.width);
  const fill = s.fill.repeat(s.width - len);
  switch (s.align || defaultAlign) {
    case '<':
      return sign + body + fill;
    case '^': {
      const left = Math.floor((s.width - len) / 2);
      return s.fill.repeat(left) + sign + body + s.fill.repeat(s.width - len - left);
    }
    case '=':
      return sign + fill + body;
    default:
      return fill + sign + body;
  }
}

function group(digits: string, sep: string, every: number): string {
  if (!sep) return digits;
  const out: string[] = [];
  for (let end = digits.length; end > 0; end -= every) out.unshift(digits.slice(Math.max(0, end - every), end));
  return out.join(sep);
}

function signOf(negative: boolean, s: Spec): string {
  return negative ? '-' : s.sign === '+' ? '+' : s.sign === ' ' ? ' ' : '';
}

function formatInt(n: number, s: Spec): string {
  if (s.type === 'c') return pad(String.fromCodePoint(n), '', s, '<');
  const base = s.type === 'b' ? 2 : s.type === 'o' ? 8 : s.type === 'x' || s.type === 'X' ? 16 : 10;
  let digits = base === 10 ? intStr(Math.abs(n)) : Math.abs(n).toString(base);
  if (s.type === 'X') digits = digits.toUpperCase();
  digits = group(digits, s.grouping, base === 10 ? 3 : 4);
  const prefix = s.alt && base !== 10 ? `0${s.type === 'X' ? 'X' : s.type || 'd'}` : '';
  return pad(prefix + digits, signOf(n < 0, s), s, '>');
}

/** Digits a precision asks for (`'%.9999999f'`), charged before they are made. */
function chargePrecision(precision: number | null): void {
  if (precision !== null) chargeStr(precision);
}

function formatFloat(x: number, s: Spec, isInteger: boolean): string {
  chargePrecision(s.precision);
  const negative = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  const upper = s.type === 'E' || s.type === 'F' || s.type === 'G';
  let body: string;
  switch (s.type) {
    case 'e':
    case 'E':
      body = formatExp(a, s.precision ?? 6, upper);
      break;
    case 'f':
    case 'F':
      body = formatFixed(a, s.precision ?? 6, upper);
      break;
    case '%':
      body = formatFixed(a * 100, s.precision ?? 6) + '%';
      break;
    case '':
      if (s.precision === null) {
        body = isInteger ? intStr(a) : floatRepr(a);
        break;
      }
      body = formatGeneral(a, s.precision, s.alt);
      if (!/[.eEn]/.test(body)) body += '.0';
      break;
    default:
      body = formatGeneral(a, s.precision ?? 6, s.alt, upper);
  }
  const [intPart, rest] = /^(\d*)(.*)$/s.exec(body)?.slice(1) ?? [body, ''];
  return pad(group(intPart, s.grouping, 3) + rest, signOf(negative && !Number.isNaN(x), s), s, '>');
}

/** Python's format(value, spec). */
function formatValue(value: unknown, spec: string): string {
  if (spec === '' && !isFloat(value)) return pyStr(value);
  if (typeof value === 'string') {
    const s = parseSpec(spec, '<');
    const refuse = (what: string) => raise('ValueError', `${what} not allowed in string format specifier`);
    if (s.sign !== '-') refuse('Sign');
    if (s.alt) refuse('Alternate form (#)');
    if (s.align === '=') refuse("'=' alignment");
    if (s.grouping) raise('ValueError', `Cannot specify '${s.grouping}' with 's'.`);
    if (s.type !== '' && s.type !== 's')
      raise('ValueError', `Unknown format code '${s.type}' for object of type 'str'`);
    const body = s.precision === null ? value : substring(value, 0, s.precision);
    return pad(body, '', s, '<');
  }
  if (!isNumber(value)) raise('TypeError', `unsupported format string passed to ${typeName(value)}.__format__`);
  const s = parseSpec(spec, '=');
  const n = toNumber(value);
  if (s.type === 's' || (isFloat(value) && 'bcdoxX'.includes(s.type) && s.type !== '')) {
    raise('ValueError', `Unknown format code '${s.type}' for object of type '${typeName(value)}'`);
  }
  if (!isFloat(value) && 'bcdoxXn'.includes(s.type)) {
    if (s.precision !== null) raise('ValueError', 'Precision not allowed in integer format specifier');
    return formatInt(n, s.type === '' ? { ...s, type: 'd' } : s);
  }
  return formatFloat(n, s.type === 'n' ? { ...s, type: 'g' } : s, !isFloat(value));
}

export interface FieldAccess {
  attribute(obj: unknown, name: string): unknown;
  item(obj: unknown, key: unknown): unknown;
}

/** Python's str.format(), looking fields up through the sandbox, as Jinja's SandboxedFormatter does. */
export function strFormat(fmt: string, args: unknown[], kwargs: Kwargs, access: FieldAccess): string {
  let auto = 0;
  let manual = false;
  const field = (name: string): unknown => {
    const m = /^([^.[]*)(.*)$/s.exec(name) ?? ['', name, ''];
    let [, head, rest] = m;
    let value: unknown;
    if (head === '') {
      if (manual) raise('ValueError', 'cannot switch from manual field specification to automatic field numbering');
      head = String(auto++);
    } else if (/^\d+$/.test(head)) {
      if (auto > 0) raise('ValueError', 'cannot switch from automatic field numbering to manual field specification');
      manual = true;
    }
    if (/^\d+$/.test(head)) {
      const i = Number(head);
      if (i >= args.length) raise('IndexError', `Replacement index ${i} out of range for positional args tuple`);
      value = args[i];
    } else {
      if (!kwargs.has(head)) raise('KeyError', pyRepr(head));
      value = kwargs.get(head);
    }
    while (rest !== '') {
      const part = /^\.([^.[]+)|^\[([^\]]+)\]/.exec(rest);
      if (!part) raise('ValueError', "Only '.' or '[' may follow ']' in format field specifier");
      value =
        part[1] !== undefined
          ? access.attribute(value, part[1])
          : access.item(value, /^\d+$/.test(part[2]) ? Number(part[2]) : part[2]);
      rest = rest.slice(part[0].length);
    }
    return value;
  };
  // V8 keeps every match, then copies the pieces into the result: both are charged before the copy.
  const render = (text: string, depth: number): string => {
    charge(MATCH_BYTES * (countOccurrences(text, '{') + countOccurrences(text, '}')) + 2 * text.length);
    return text.replace(/\{\{|\}\}|\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}|[{}]/g, (token, body: string | undefined) => {
      if (token === '{{') return '{';
      if (token === '}}') return '}';
      if (body === undefined) raise('ValueError', `Single '${token}' encountered in format string`);
      if (depth > 1) raise('ValueError', 'Max string recursion exceeded');
      const m = /^([^!:]*)(?:!([rsa]))?(?::(.*))?$/s.exec(body);
      if (!m) raise('ValueError', "expected ':' after conversion specifier");
      let value = field(m[1]);
      if (m[2] === 'r' || m[2] === 'a') value = pyRepr(value);
      else if (m[2] === 's') value = pyStr(value);
      const out = formatValue(value, render(m[3] ?? '', depth + 1));
      chargeStr(out.length);
      return out;
    });
  };
  return render(fmt, 0);
}

const PERCENT = /%(?:\(([^)]*)\))?([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)?/gs;

/** Python's printf-style `fmt % args`. */
export function percentFormat(fmt: string, args: unknown): string {
  const list = isTuple(args) ? args : [args];
  const mapping = isDict(args) ? args : null;
  // Python does not complain about unused arguments when the operand has __getitem__ (a list, a dict, ...).
  const lenient =
    !isTuple(args) && (Array.isArray(args) || isDict(args) || args instanceof PyRange || args instanceof Undefined);
  let next = 0;
  charge(MATCH_BYTES * countOccurrences(fmt, '%') + 2 * fmt.length);
  const take = (): unknown => {
    if (next >= list.length) raise('TypeError', 'not enough arguments for format string');
    return list[next++];
  };
  const out = fmt.replace(
    PERCENT,
    (_all, key: string | undefined, flags: string, w?: string, p?: string, type?: string) => {
      if (type === undefined) raise('ValueError', 'incomplete format');
      if (type === '%' && key === undefined) return '%';
      let value: unknown;
      const width = w === '*' ? toNumber(take() as number) : Number(w ?? 0);
      const precision = p === '*' ? toNumber(take() as number) : p === undefined ? null : Number(p);
      if (key !== undefined) {
        if (mapping === null) raise('TypeError', 'format requires a mapping');
        value = dictGet(mapping, key);
        if (value === MISSING) raise('KeyError', pyRepr(key));
      } else value = take();
      const spec: Spec = {
        fill: flags.includes('0') && !flags.includes('-') && !'sr'.includes(type) ? '0' : ' ',
        align: flags.includes('-') ? '<' : flags.includes('0') && !'sr'.includes(type) ? '=' : '>',
        sign: flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '-',
        alt: flags.includes('#'),
        zero: false,
        width,
        grouping: '',
        precision,
        type,
      };
      const piece = percentOne(value, spec);
      chargeStr(piece.length);
      return piece;
    },
  );
  if (next < list.length && !lenient) raise('TypeError', 'not all arguments converted during string formatting');
  return out;
}

function percentOne(value: unknown, s: Spec): string {
  switch (s.type) {
    case 's':
    case 'r':
    case 'a': {
      const text = s.type === 's' ? pyStr(value) : pyRepr(value);
      return pad(s.precision === null ? text : substring(text, 0, s.precision), '', s, '>');
    }
    case 'c': {
      const c =
        typeof value === 'string'
          ? value
          : isNumber(value) && !isFloat(value)
            ? String.fromCodePoint(toNumber(value))
            : null;
      if (c === null || strLength(c) !== 1) raise('TypeError', '%c requires int or char');
      return pad(c, '', s, '>');
    }
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X': {
      if (!isNumber(value)) raise('TypeError', `%${s.type} format: a real number is required, not ${typeName(value)}`);
      if (isFloat(value) && 'oxX'.includes(s.type)) {
        raise('TypeError', `%${s.type} format: an integer is required, not float`);
      }
      const n = Math.trunc(toNumber(value));
      const base = s.type === 'o' ? 8 : s.type === 'x' || s.type === 'X' ? 16 : 10;
      let digits = base === 10 ? intStr(Math.abs(n)) : Math.abs(n).toString(base);
      if (s.type === 'X') digits = digits.toUpperCase();
      if (s.precision !== null) {
        chargePrecision(s.precision);
        digits = digits.padStart(s.precision, '0');
      }
      const prefix = s.alt && base !== 10 ? `0${s.type === 'o' ? 'o' : s.type}` : '';
      return pad(prefix + digits, signOf(n < 0, s), s, '>');
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      if (!isNumber(value)) raise('TypeError', `must be real number, not ${typeName(value)}`);
      const x = toNumber(value);
      const a = Math.abs(x);
      const upper = s.type === s.type.toUpperCase();
      const prec = s.precision ?? 6;
      chargePrecision(prec);
      const body =
        s.type === 'e' || s.type === 'E'
          ? formatExp(a, prec, upper)
          : s.type === 'f' || s.type === 'F'
            ? formatFixed(a, prec, upper) + (s.alt && prec === 0 ? '.' : '')
            : formatGeneral(a, prec, s.alt, upper);
      return pad(body, signOf(x < 0 || Object.is(x, -0), s), s, '>');
    }
    default:
      raise('ValueError', `unsupported format character '${s.type}'`);
  }
}
