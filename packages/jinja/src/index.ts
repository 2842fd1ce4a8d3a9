/**
 * A synchronous Jinja2 engine matching jinja2.sandbox.SandboxedEnvironment (what NetBox renders config templates
 * with). Templates are lexed as Jinja does (lexer.ts), parsed by nunjucks' Parser extended to Jinja's grammar
 * (expressions.ts, parser.ts) and rendered by a tree-walking interpreter over Python-like values (render.ts), whose
 * only way into a value is sandbox.ts. nunjucks' compiler and runtime are not used: they turn templates into
 * JavaScript with JavaScript's semantics (truthiness, +, ==, printing, scoping), reaching object properties directly.
 * Pure: no I/O but the `load` callback, no state but bounded caches and the meter of the render in progress (meter.ts),
 * so a template process can call it as is. What a render allocates is charged to an AllocationMeter before it is built.
 */
import { environmentFor } from './environment.js';
import { TemplateError } from './errors.js';
import { allocationBudget, DEFAULT_ALLOCATION_BYTES, strBytes, type AllocationMeter } from './meter.js';
import { Renderer } from './render.js';

export { allocationBudget, DEFAULT_ALLOCATION_BYTES, TemplateError, type AllocationMeter };
export { MemoryLimitError, PyError, type PyErrorType } from './errors.js';
export { HOST, splitArguments, type HostArguments, type TemplateHost } from './host.js';

export interface JinjaOptions {
  /**
   * NetBox's ConfigTemplate.environment_params: keyword arguments of Jinja2's Environment (trim_blocks,
   * lstrip_blocks, keep_trailing_newline, block_start_string, …, undefined: 'jinja2.StrictUndefined'). Unknown or
   * unsupported keys/values throw TemplateError naming the key.
   */
  params?: Record<string, unknown>;
  /**
   * Source of another template for {% include %}, {% import %}, {% from … import %}, {% extends %}; undefined = not
   * found (Jinja's TemplateNotFound, whose message is the name).
   */
  load?(name: string): string | undefined;
  /** Output size limit in characters: the render throws TemplateError 'Output exceeds N characters' as soon as it passes. */
  maxOutput?: number;
  /**
   * Charged before the engine allocates a value whose size the template decides (repetition, join, copies, repr,
   * padding...); when it throws, the render fails with a TemplateError. Default: a fresh
   * allocationBudget(DEFAULT_ALLOCATION_BYTES) for each render.
   */
  meter?: AllocationMeter;
  /**
   * Told the text of every value a `{{ … }}` prints, before it is written; throwing (a PyError) fails the render at
   * that line. A webhook's headers refuse a line break there: it would add a header.
   */
  printed?(text: string): void;
}

/** Where this engine's output can differ from Jinja2's, and why. */
export const KNOWN_DIFFERENCES: string[] = [
  'JSON has one number type: a context value 1.0 arrives as the int 1 and prints 1 (floats made by the template, as 10 / 5 or 2.0, print as in Python).',
  'Integers beyond 2^53 lose precision; ** with a fractional exponent can differ in the last digit, and gives nan where Python gives a complex number (JavaScript numbers).',
  'Dicts from JSON have string keys in JavaScript order: integer-like keys ("10") come first. Dicts made by the template ({1: "a"}, dict()) keep any hashable key in insertion order.',
  'There is no Markup: escape, safe, tojson and xmlattr return plain strings, so escaping twice escapes twice, + does not escape its other operand, `is escaped` is false and they print as strings inside lists.',
  "Generators, iterators, methods, cyclers, joiners and pprint's recursion marker print without a memory address (<generator object sync_do_map>).",
  'The urlize filter is not provided; autoescape (the parameter or a true {% autoescape %}), finalize, loader, enable_async and extensions other than loopcontrols and do are rejected.',
  'striptags decodes numeric character references and only the common named entities (&amp; &lt; &gt; &quot; &apos; &nbsp;).',
  'lipsum draws from its own word list (its text is random in both).',
  'Unicode case mapping and character classes follow JavaScript in corner cases (title-casing "ǆ", isdigit on rare digits), and the ascii conversions (%a, !a) do not escape non-ASCII characters.',
  'Repetition and padding results over 10,000,000 items fail, and so do macro calls, includes and imports nested over 200 deep (Python fails near 1,000 frames); a render also fails with a MemoryError when its allocation meter refuses a value before it is built (by default, once the render has allocated 512 MiB in all, garbage included), where Python would go on.',
  'Error messages follow Jinja for common errors but are not guaranteed identical, and carry no exception class name.',
  'Numbers have only the real and imag attributes (no int or float methods); sameas compares values for numbers and strings; a dunder attribute of an Undefined (missing.__len__) raises where Jinja prints nothing.',
  'xmlattr rejects attribute names with spaces, "/", ">" or "=" (Jinja 3.1.4+; 3.1.2 accepted them), and int returns its default for infinity (3.1.6; 3.1.2 raised).',
  'A TemplateHost has the attributes it answers: it stands for a Django object, whose other Python attributes are undefined here; hosts compare by identity.',
];

export function renderTemplate(source: string, context: Record<string, unknown>, options: JinjaOptions = {}): string {
  const meter = options.meter ?? allocationBudget(DEFAULT_ALLOCATION_BYTES);
  try {
    const env = environmentFor(options.params);
    const output = new Renderer(env, { ...options, meter }).render(env.compile(source), context);
    // NetBox does the same to the rendered text (a copy, when there is a CR).
    if (!output.includes('\r')) return output;
    meter.charge(strBytes(output.length));
    return output.replace(/\r\n/g, '\n');
  } catch (e) {
    if (e instanceof TemplateError) throw e;
    // Statements turn every error into a TemplateError with its line; this is what escapes them (the output's last
    // copy, charged to the meter, which may refuse with anything).
    throw new TemplateError(e instanceof Error ? e.message : String(e));
  }
}
