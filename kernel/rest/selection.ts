import type { Request } from 'express';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { readKeys, type FieldSelection } from '../model/render.js';
import { ValidationError, type ErrorMap } from '../base/types.js';

/** Names a parameter lists: repeated and/or comma-separated. */
function names(raw: unknown): string[] {
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** What `exclude` may name even on models without it (NetBox's devices and virtual machines have it). */
const EXCLUDABLE_ANYWHERE = new Set(['config_context']);

/**
 * `?fields=a,b` renders only those keys, `?omit=a,b` (and `?exclude=config_context`) leaves keys out; a field
 * whose keys are all left out is not computed at all. Unknown names are a 400 naming the parameter.
 */
export function selectionOf(req: Request, model: Model, registry: ModelRegistry): FieldSelection | undefined {
  const only = names(req.query.fields);
  const omit = names(req.query.omit);
  const exclude = names(req.query.exclude);
  if (!only.length && !omit.length && !exclude.length) return undefined;
  const known = new Set(registry.outputFields(model, 'full').flatMap((f) => readKeys(f, registry)));
  const errors: ErrorMap = {};
  const check = (param: string, list: string[], tolerated: ReadonlySet<string> = new Set()) => {
    const unknown = list.filter((n) => !known.has(n) && !tolerated.has(n));
    if (unknown.length) errors[param] = [`Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`];
  };
  check('fields', only);
  check('omit', omit);
  check('exclude', exclude, EXCLUDABLE_ANYWHERE);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { only: only.length ? new Set(only) : undefined, omit: new Set([...omit, ...exclude]) };
}
