import { ValidationError, type ErrorMap } from '../base/types.js';
import type { Model } from '../model/model.js';
import type { FilterContext, FilterSets } from '../model/filter-sets.js';
import { and, type FilterNode } from './tree.js';
import { ParamError } from './errors.js';

/** Parameters that steer a list rather than filter it. */
const RESERVED = new Set(['limit', 'offset', 'ordering', 'brief', 'format', 'indent', 'start', 'exclude', 'fields', 'omit']);

/** Query-string parameters: one value or repeated ones. */
export type QueryParams = Record<string, unknown>;

function values(raw: unknown): string[] {
  return (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
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
    let name = param;
    let suffix = '';
    let filter = sets.lookup(model, param);
    const split = param.lastIndexOf('__');
    if (!filter && split > 0) {
      name = param.slice(0, split);
      suffix = param.slice(split + 2);
      filter = sets.lookup(model, name);
      if (filter && !filter.suffixes.includes(suffix)) filter = undefined;
    }
    if (!filter) continue;
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
