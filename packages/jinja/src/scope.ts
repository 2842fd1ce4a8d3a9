/**
 * Variable scopes, as Jinja resolves names: the innermost scope first, then the enclosing ones, then the render
 * context, then the globals. A loop iteration, macro call, `{% with %}` and block body each get a new scope, so `set`
 * inside them never changes the outer variable (Jinja's scoping rule; nunjucks would write through).
 */
import { ownValue } from './dicts.js';
import { MISSING } from './values.js';

export class Scope {
  /** Created on the first `set`: many scopes (around an include, a block, a template) never get one. */
  private vars: Map<string, unknown> | null = null;

  constructor(
    private readonly parent: Scope | null,
    /** The render context (JSON data and hosts): read as own data properties only. */
    private readonly context: object | null = null,
  ) {}

  static of(vars: Map<string, unknown>): Scope {
    const scope = new Scope(null);
    scope.vars = new Map(vars);
    return scope;
  }

  lookup(name: string): unknown {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      if (s.vars?.has(name)) return s.vars.get(name);
      if (s.context !== null) {
        const value = ownValue(s.context, name);
        if (value !== MISSING) return value;
      }
    }
    return MISSING;
  }

  set(name: string, value: unknown): void {
    (this.vars ??= new Map()).set(name, value);
  }

  /** What a template exports to `{% import %}`: its top-level names not starting with `_`. */
  exports(): Map<string, unknown> {
    return new Map([...(this.vars ?? [])].filter(([k]) => !k.startsWith('_')));
  }
}
