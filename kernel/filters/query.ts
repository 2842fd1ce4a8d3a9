import { ValidationError, type ErrorMap } from '../base/types.js';
import type { Model } from '../model/model.js';
import type { FilterContext, FilterSets } from '../model/filter-sets.js';
import type { QueryFilter } from './builders.js';
import { and, type FilterNode } from './tree.js';
import { ParamError } from './errors.js';

/** Parameters that steer a list rather than filter it. */
const RESERVED = new Set(['limit', 'offset', 'ordering', 'brief', 'format', 'indent', 'start', 'exclude', 'fields', 'omit']);

/** Query-string parameters: one value or repeated ones. */
export type QueryParams = Record<string, unknown>;

function values(raw: unknown): string[] {
  return (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
}

/** What finds a model's filter by name (the filter sets; a plugin's `ctx.filters`). */
export interface FilterLookup {
  lookup(model: Model, name: string): QueryFilter | undefined;
}

/** The filter a list parameter names (`status`, or `name__ic`: a filter and a suffix it takes), if it names one. */
function filterOfParam(sets: FilterLookup, model: Model, param: string): { filter: QueryFilter; suffix: string } | undefined {
  const whole = sets.lookup(model, param);
  if (whole) return { filter: whole, suffix: '' };
  const split = param.lastIndexOf('__');
  if (split <= 0) return undefined;
  const filter = sets.lookup(model, param.slice(0, split));
  const suffix = param.slice(split + 2);
  return filter?.suffixes.includes(suffix) ? { filter, suffix } : undefined;
}

/** Whether a list of `model` takes `param`: one of its filters, or a parameter shaping the list. It ignores the others, as NetBox does. */
export function takesParam(sets: FilterLookup, model: Model, param: string): boolean {
  return RESERVED.has(param) || filterOfParam(sets, model, param) !== undefined;
}

/**
 * The filter tree of a list request's parameters: different parameters AND, repeated ones OR (negations: none
 * of them). Unknown parameters are ignored, as NetBox does; bad values are a 400 naming the parameter.
 */
export async function filterFromQuery(params: QueryParams, model: Model, sets: FilterSets, ctx: FilterContext, maxValues: number): Promise<FilterNode> {
  const nodes: FilterNode[] = [];
  const errors: ErrorMap = {};
  for (const [param, raw] of Object.entries(params)) {
    if (RESERVED.has(param)) continue;
    const found = filterOfParam(sets, model, param);
    if (!found) continue;
    const { filter, suffix } = found;
    const given = values(raw);
    if (given.length > maxValues) {
      errors[param] = [`Too many values: at most ${maxValues}.`];
      continue;
    }
    try {
      nodes.push(await filter.build(suffix, given, ctx));
    } catch (err) {
      if (!(err instanceof ParamError)) throw err;
      errors[param] = [err.message];
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return and(nodes);
}
