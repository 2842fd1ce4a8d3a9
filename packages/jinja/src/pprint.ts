/** The `pprint` filter: Python's pprint.pformat (width 80, dicts sorted), ported from CPython's pprint.py. */
import { dictItems } from './dicts.js';
import { PyError } from './errors.js';
import {
  charge,
  chargeList,
  chargeStr,
  concatenated,
  countMatches,
  ITEM_BYTES,
  joined,
  STRING_BYTES,
} from './meter.js';
import { order } from './protocol.js';
import { pyRepr, typeName } from './python.js';
import { reprStr, splitLines, strLength } from './pystring.js';
import { isDict, isList, isTuple, type Dict } from './values.js';

const WIDTH = 80;

/** pprint's _safe_key: Python's ordering, or the type name when the values are not comparable. */
function safeCompare(a: unknown, b: unknown): number {
  try {
    return order('<', a, b) ? -1 : order('<', b, a) ? 1 : 0;
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    const [x, y] = [typeName(a), typeName(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
}

function sortedItems(d: Dict): [unknown, unknown][] {
  return dictItems(d).sort((a, b) => safeCompare(a[0], b[0]) || safeCompare(a[1], b[1]));
}

/** _safe_repr: repr() with dict keys sorted at every level (a container inside itself prints as a recursion). */
function safeRepr(v: unknown, seen = new Set<unknown>()): string {
  if (!isDict(v) && !Array.isArray(v)) return pyRepr(v);
  if (seen.has(v)) return `<Recursion on ${typeName(v)}>`;
  seen.add(v);
  // Each item charged as it is made, with what the join will copy of it: a list holding one big value many times is
  // refused while it is printed.
  const r = (x: unknown) => {
    const out = safeRepr(x, seen);
    charge(ITEM_BYTES + 2 * out.length);
    return out;
  };
  const join = (items: string[]) => {
    chargeStr(2 * (items.length - 1));
    return items.join(', ');
  };
  let out: string;
  if (isDict(v)) out = concatenated(['{', join(sortedItems(v).map(([k, x]) => concatenated([r(k), ': ', r(x)]))), '}']);
  else if (isTuple(v) && v.length === 1) out = concatenated(['(', r(v[0]), ',)']);
  else if (isTuple(v)) out = concatenated(['(', join(v.map(r)), ')']);
  else out = concatenated(['[', join((v as unknown[]).map(r)), ']']);
  seen.delete(v);
  return out;
}

class Printer {
  out = '';
  /** The containers being printed, for a container inside itself. */
  private readonly open = new Set<unknown>();

  /** Appends to the output, a rope: a new cell (`s` was charged when it was made). */
  private write(s: string): void {
    charge(2 * STRING_BYTES);
    this.out += s;
  }

  /** A line break and `width` spaces (charged before they are made). */
  private newline(prefix: string, width: number): void {
    chargeStr(prefix.length + 1 + width);
    this.write(prefix + '\n' + ' '.repeat(width));
  }

  format(v: unknown, indent: number, allowance: number, level: number): void {
    if (this.open.has(v)) {
      this.write(`<Recursion on ${typeName(v)}>`);
      return;
    }
    const rep = safeRepr(v);
    if (strLength(rep) <= WIDTH - indent - allowance) {
      this.write(rep);
      return;
    }
    this.open.add(v);
    this.dispatch(v, rep, indent, allowance, level);
    this.open.delete(v);
  }

  private dispatch(v: unknown, rep: string, indent: number, allowance: number, level: number): void {
    if (isDict(v)) this.dict(v, indent, allowance, level + 1);
    else if (isList(v)) this.items(v, '[', ']', indent, allowance, level + 1);
    else if (isTuple(v)) this.items(v, '(', v.length === 1 ? ',)' : ')', indent, allowance, level + 1);
    else if (typeof v === 'string') this.str(v, indent, allowance, level + 1);
    else this.write(rep);
  }

  private dict(d: Dict, indent: number, allowance: number, level: number): void {
    this.write('{');
    const items = sortedItems(d);
    const inner = indent + 1;
    items.forEach(([k, v], i) => {
      const last = i === items.length - 1;
      const rep = safeRepr(k);
      this.write(rep);
      this.write(': ');
      this.format(v, inner + strLength(rep) + 2, last ? allowance + 1 : 1, level);
      if (!last) this.newline(',', inner);
    });
    this.write('}');
  }

  private items(
    seq: readonly unknown[],
    open: string,
    close: string,
    indent: number,
    allowance: number,
    level: number,
  ): void {
    this.write(open);
    const inner = indent + 1;
    seq.forEach((v, i) => {
      if (i > 0) this.newline(',', inner);
      this.format(v, inner, i === seq.length - 1 ? allowance + close.length : 1, level);
    });
    this.write(close);
  }

  private str(s: string, indent: number, allowance: number, level: number): void {
    const chunks: string[] = [];
    const lines = splitLines(s, true);
    if (level === 1) {
      indent += 1;
      allowance += 1;
    }
    const maxWidth = WIDTH - indent;
    let lastRep = '';
    lines.forEach((line, i) => {
      const rep = (lastRep = reprStr(line));
      const lastLine = i === lines.length - 1;
      charge(ITEM_BYTES);
      if (strLength(rep) <= maxWidth - (lastLine ? allowance : 0)) {
        chunks.push(rep);
        return;
      }
      // At most a part a run of spaces, and the empty match at the end.
      chargeList(countMatches(/\s+/gu, line) + 2);
      const parts = line.match(/\S*\s*/gu) ?? [];
      parts.pop(); // the empty match at the end
      let current = '';
      parts.forEach((part, j) => {
        const candidate = concatenated([current, part]);
        const limit = maxWidth - (j === parts.length - 1 && lastLine ? allowance : 0);
        if (strLength(reprStr(candidate)) > limit) {
          charge(ITEM_BYTES);
          if (current) chunks.push(reprStr(current));
          current = part;
        } else current = candidate;
      });
      charge(ITEM_BYTES);
      if (current) chunks.push(reprStr(current));
    });
    if (chunks.length === 1) {
      this.write(lastRep);
      return;
    }
    chargeStr(indent);
    const body = joined(chunks, '\n' + ' '.repeat(indent));
    this.write(level === 1 ? concatenated(['(', body, ')']) : body);
  }
}

export function pformat(value: unknown): string {
  const p = new Printer();
  p.format(value, 0, 0, 0);
  return p.out;
}
