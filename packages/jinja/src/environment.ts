/** A Jinja environment: the settings from environment_params, filters, tests, Undefined, and compiled templates. */
import { raise, TemplateError } from './errors.js';
import { FILTERS } from './filters.js';
import { check } from './analysis.js';
import type { NodeList } from './ast.js';
import type { FieldAccess } from './format.js';
import { makeGlobals } from './globals.js';
import { tokenize } from './lexer.js';
import { parse } from './parser.js';
import { settingsFrom, type Settings } from './params.js';
import { failUndefined, objectTypeRepr } from './python.js';
import { attribute, callValue, getattr, getitem } from './sandbox.js';
import { Scope } from './scope.js';
import { TESTS } from './tests.js';
import { MISSING, Undefined, type Kwargs } from './values.js';

export type Parsed = NodeList;

/** Bounded caches: a worker renders many templates with few distinct parameter sets. */
const MAX_ENVIRONMENTS = 16;
const MAX_TEMPLATES = 128;

export class Environment {
  readonly fieldAccess: FieldAccess = {
    attribute: (obj, name) => getattr(this, obj, name),
    item: (obj, key) => getitem(this, obj, key),
  };
  /** The globals, shared by every render: they hold no state a template could change. */
  readonly globals = Scope.of(makeGlobals());
  private readonly templates = new Map<string, Parsed>();

  constructor(readonly settings: Settings) {}

  undefined(hint: string | null = null, owner: string | null = null, name: unknown = null, unsafe = false): Undefined {
    return new Undefined(this.settings.undefinedKind, hint, owner, name, unsafe);
  }

  getitem(obj: unknown, key: unknown): unknown {
    return getitem(this, obj, key);
  }

  /** The `attr` filter: an attribute proper, never an item. */
  attribute(obj: unknown, name: string): unknown {
    if (obj instanceof Undefined) return obj.kind === 'chainable' ? obj : failUndefined(obj);
    const value = attribute(this, obj, name);
    return value === MISSING ? this.undefined(null, objectTypeRepr(obj), name) : value;
  }

  call(fn: unknown, args: unknown[], kwargs: Kwargs): unknown {
    return callValue(fn, args, kwargs);
  }

  hasFilter(name: unknown): boolean {
    return typeof name === 'string' && FILTERS.has(name);
  }

  hasTest(name: unknown): boolean {
    return typeof name === 'string' && TESTS.has(name);
  }

  callFilter(name: string, value: unknown, args: unknown[], kwargs: Kwargs): unknown {
    const filter = FILTERS.get(name);
    if (filter === undefined) raise('TemplateRuntimeError', `No filter named '${name}'.`);
    return filter(this, value, args, kwargs);
  }

  callTest(name: string, value: unknown, args: unknown[], kwargs: Kwargs): boolean {
    const test = TESTS.get(name);
    if (test === undefined) raise('TemplateRuntimeError', `No test named '${name}'.`);
    return test(this, value, args, kwargs);
  }

  compile(source: string): Parsed {
    let parsed = this.templates.get(source);
    if (parsed !== undefined) {
      this.templates.delete(source);
      this.templates.set(source, parsed);
      return parsed;
    }
    parsed = this.parse(source);
    if (this.templates.size >= MAX_TEMPLATES) this.templates.delete(this.templates.keys().next().value as string);
    this.templates.set(source, parsed);
    return parsed;
  }

  private parse(source: string): Parsed {
    let parsed: Parsed;
    try {
      parsed = parse(tokenize(source, this.settings), {
        loopControls: this.settings.loopControls,
        doStatement: this.settings.doStatement,
      });
    } catch (e) {
      // nunjucks' from-import parser reads a token past the end of an unterminated tag.
      if (e instanceof TypeError) throw new TemplateError('unexpected end of template');
      throw e;
    }
    check(
      parsed,
      (name) => FILTERS.has(name),
      (name) => TESTS.has(name),
    );
    return parsed;
  }
}

const environments = new Map<string, Environment>();

export function environmentFor(params: Record<string, unknown> | undefined): Environment {
  const settings = settingsFrom(params);
  const key = JSON.stringify(settings);
  let env = environments.get(key);
  if (env === undefined) {
    if (environments.size >= MAX_ENVIRONMENTS) environments.delete(environments.keys().next().value as string);
    environments.set(key, (env = new Environment(settings)));
  }
  return env;
}
