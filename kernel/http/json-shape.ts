/** How large a JSON text's structure may be: nesting, keys of one object, values in all. */
export interface JsonLimits {
  depth: number;
  keys: number;
  elements: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * What makes a JSON text (UTF-8 bytes) too large to parse, in words, or undefined: nested deeper than `depth`, an
 * object of more than `keys` keys, more than `elements` values in all. One pass over the bytes, before JSON.parse:
 * V8 takes seconds over an object of 500,000 keys (superlinearly), and walking what it built takes longer still, so
 * such a body is refused before either. Malformed text is left to JSON.parse, which says where.
 */
export function jsonShapeProblem(bytes: Uint8Array, limits: JsonLimits): string | undefined {
  // Per open container: whether it is an object, how many values it holds so far, whether one has started.
  const objects = new Uint8Array(limits.depth + 1);
  const items = new Float64Array(limits.depth + 1);
  const started = new Uint8Array(limits.depth + 1);
  let depth = 0;
  let elements = 0;
  /** A value (or a key) starts at the current depth: the first one of its container counts. */
  const start = (): string | undefined => {
    if (depth === 0 || started[depth]) return undefined;
    started[depth] = 1;
    return count();
  };
  const count = (): string | undefined => {
    items[depth] += 1;
    elements += 1;
    if (elements > limits.elements) return `the body holds more than ${limits.elements} values`;
    if (objects[depth] && items[depth] > limits.keys) return `an object of the body has more than ${limits.keys} keys`;
    return undefined;
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (isSpace(c) || c === COLON) continue;
    let problem: string | undefined;
    if (c === QUOTE) {
      problem = start();
      // Past the string: escaped characters (\" among them) are skipped in pairs.
      for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      problem = start();
      depth += 1;
      if (depth > limits.depth) return `the body nests deeper than ${limits.depth} levels`;
      objects[depth] = c === OPEN_OBJECT ? 1 : 0;
      items[depth] = 0;
      started[depth] = 0;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth -= 1;
    } else if (c === COMMA) {
      // The next value of this container: counted now, so that `[,,,` cannot pass uncounted.
      if (depth > 0) problem = count();
    } else {
      problem = start();
    }
    if (problem) return problem;
  }
  return undefined;
}
