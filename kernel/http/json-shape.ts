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
 * Checks a JSON text's structure as its bytes (UTF-8) arrive, before anything parses it: nested deeper than `depth`,
 * an object of more than `keys` keys, more than `elements` values in all. One pass, in chunks, so that a body past
 * them is refused at the chunk that passes them, without reading the rest: V8 takes seconds over one object of
 * 500,000 keys (superlinearly), and walking what it built longer still. Malformed text is left to JSON.parse, which
 * says where.
 */
export class JsonShape {
  /** Per open container: whether it is an object, how many values it holds so far, whether one has started. */
  private readonly objects: Uint8Array;
  private readonly items: Float64Array;
  private readonly started: Uint8Array;
  private depth = 0;
  private elements = 0;
  /** Inside a string, and just after a backslash in one: a chunk may end anywhere. */
  private inString = false;
  private escaped = false;

  constructor(private readonly limits: JsonLimits) {
    this.objects = new Uint8Array(limits.depth + 1);
    this.items = new Float64Array(limits.depth + 1);
    this.started = new Uint8Array(limits.depth + 1);
  }

  /** The next bytes; what makes the text too large, in words, or undefined. */
  push(bytes: Uint8Array): string | undefined {
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i];
      if (this.inString) {
        // Escaped characters (\" among them) are skipped in pairs.
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
        continue;
      }
      if (isSpace(c) || c === COLON) continue;
      let problem: string | undefined;
      if (c === QUOTE) {
        problem = this.start();
        this.inString = true;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        problem = this.start();
        this.depth += 1;
        if (this.depth > this.limits.depth) return `the body nests deeper than ${this.limits.depth} levels`;
        this.objects[this.depth] = c === OPEN_OBJECT ? 1 : 0;
        this.items[this.depth] = 0;
        this.started[this.depth] = 0;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (this.depth > 0) this.depth -= 1;
      } else if (c === COMMA) {
        // The next value of this container: counted now, so that `[,,,` cannot pass uncounted.
        if (this.depth > 0) problem = this.count();
      } else {
        problem = this.start();
      }
      if (problem) return problem;
    }
    return undefined;
  }

  /** A value (or a key) starts at the current depth: the first one of its container counts. */
  private start(): string | undefined {
    if (this.depth === 0 || this.started[this.depth]) return undefined;
    this.started[this.depth] = 1;
    return this.count();
  }

  private count(): string | undefined {
    this.items[this.depth] += 1;
    this.elements += 1;
    if (this.elements > this.limits.elements) return `the body holds more than ${this.limits.elements} values`;
    if (this.objects[this.depth] && this.items[this.depth] > this.limits.keys) return `an object of the body has more than ${this.limits.keys} keys`;
    return undefined;
  }
}

/** What makes a whole JSON text too large (see JsonShape), or undefined. */
export function jsonShapeProblem(bytes: Uint8Array, limits: JsonLimits): string | undefined {
  return new JsonShape(limits).push(bytes);
}
