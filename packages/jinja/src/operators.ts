/** Python's arithmetic operators: int and float results, sequence concatenation and repetition, `str % args`. */
import { raise } from './errors.js';
import { percentFormat } from './format.js';
import { MAX_REPEAT } from './limits.js';
import { chargeList, chargeStr, concatenated } from './meter.js';
import { failUndefined, typeName } from './python.js';
import { isFloat, isList, isNumber, isTuple, makeFloat, toNumber, tuple, Undefined } from './values.js';

export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '%' | '**';

function unsupported(op: string, a: unknown, b: unknown): never {
  raise('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function repeat(seq: unknown, n: unknown): unknown {
  if (isFloat(n) || !isNumber(n)) raise('TypeError', `can't multiply sequence by non-int of type '${typeName(n)}'`);
  const times = Math.max(0, toNumber(n));
  const length = typeof seq === 'string' ? seq.length : (seq as readonly unknown[]).length;
  if (length * times > MAX_REPEAT) raise('OverflowError', `repetition result larger than ${MAX_REPEAT} items`);
  if (typeof seq === 'string') {
    chargeStr(seq.length * times);
    return seq.repeat(times);
  }
  const items = seq as readonly unknown[];
  chargeList(length * times);
  const out = new Array<unknown>(length * times);
  for (let i = 0; i < out.length; i++) out[i] = items[i % length];
  return isTuple(seq) ? tuple(out) : out;
}

/** Python's float `%` and `//`, which take the divisor's sign. */
function floatMod(x: number, y: number): number {
  const mod = x % y;
  if (mod === 0) return y < 0 ? -0 : 0;
  return y < 0 !== mod < 0 ? mod + y : mod;
}

function floatFloorDiv(x: number, y: number): number {
  const div = (x - floatMod(x, y)) / y;
  if (div === 0) return x / y < 0 || Object.is(x / y, -0) ? -0 : 0;
  const floor = Math.floor(div);
  return div - floor > 0.5 ? floor + 1 : floor;
}

function number(a: number | boolean | object, b: number | boolean | object, op: BinaryOp): unknown {
  const float = isFloat(a) || isFloat(b);
  const x = toNumber(a as number);
  const y = toNumber(b as number);
  const result = (n: number, asFloat = float) => (asFloat ? makeFloat(n) : n);
  switch (op) {
    case '+':
      return result(x + y);
    case '-':
      return result(x - y);
    case '*':
      return result(x * y);
    case '/':
      if (y === 0) raise('ZeroDivisionError', 'division by zero');
      return result(x / y, true);
    case '//':
      if (y === 0)
        raise('ZeroDivisionError', float ? 'float floor division by zero' : 'integer division or modulo by zero');
      return result(float ? floatFloorDiv(x, y) : Math.floor(x / y));
    case '%':
      if (y === 0) raise('ZeroDivisionError', float ? 'float modulo' : 'integer modulo by zero');
      return result(floatMod(x, y));
    case '**':
      if (x === 0 && y < 0) raise('ZeroDivisionError', '0.0 cannot be raised to a negative power');
      return result(x ** y, float || y < 0);
  }
}

export function binary(op: BinaryOp, a: unknown, b: unknown): unknown {
  // str % Undefined formats (an Undefined prints ''); every other operator refuses Undefined.
  if (op === '%' && typeof a === 'string') return percentFormat(a, b);
  if (a instanceof Undefined) failUndefined(a);
  if (b instanceof Undefined) failUndefined(b);
  if (isNumber(a) && isNumber(b)) return number(a, b, op);
  if (op === '+') {
    if (typeof a === 'string' && typeof b === 'string') return concatenated([a, b]);
    if (isList(a) && isList(b)) {
      chargeList(a.length + b.length);
      return a.concat(b);
    }
    if (isTuple(a) && isTuple(b)) {
      chargeList(a.length + b.length);
      return tuple(a.concat(b));
    }
    if (typeof a === 'string' || isList(a) || isTuple(a)) {
      raise('TypeError', `can only concatenate ${typeName(a)} (not "${typeName(b)}") to ${typeName(a)}`);
    }
  }
  if (op === '*') {
    if (typeof a === 'string' || Array.isArray(a)) return repeat(a, b);
    if (typeof b === 'string' || Array.isArray(b)) return repeat(b, a);
  }
  return unsupported(op, a, b);
}

export function unary(op: '-' | '+', v: unknown): unknown {
  if (v instanceof Undefined) failUndefined(v);
  if (!isNumber(v)) raise('TypeError', `bad operand type for unary ${op}: '${typeName(v)}'`);
  const n = toNumber(v);
  const out = op === '-' ? -n : n;
  return isFloat(v) ? makeFloat(out) : out === 0 ? 0 : out;
}
