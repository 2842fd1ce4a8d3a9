import type { SchemaComposer } from 'graphql-compose';
import type { FilterContext, QueryFilter } from '../filters/builders.js';
import { ParamError } from '../filters/errors.js';
import { and, type FilterNode } from '../filters/tree.js';

/**
 * The lookup inputs of GraphQL filters, in NetBox 4.3+'s shapes (strawberry-django's lookups), and how each
 * becomes the kernel's comparisons. A lookup object holds any number of lookups, ANDed; a null one is skipped.
 */

/** GraphQL lookup names → the kernel's (`i_contains` → `icontains`). */
const KERNEL_LOOKUPS: Record<string, string> = {
  exact: 'exact', i_exact: 'iexact', contains: 'contains', i_contains: 'icontains', starts_with: 'startswith', i_starts_with: 'istartswith',
  ends_with: 'endswith', i_ends_with: 'iendswith', regex: 'regex', i_regex: 'iregex', in_list: 'in', is_null: 'isnull',
  gt: 'gt', gte: 'gte', lt: 'lt', lte: 'lte',
};

/** One comparison a lookup object asks for: its GraphQL name and the kernel's. */
export interface LookupPair {
  key: string;
  lookup: string;
  value: unknown;
}

/**
 * The comparisons of a lookup object: NetBox's one-of wrappers (`filter_lookup`, `comparison_lookup`,
 * `range_lookup`) are read like the flat keys; `range` is `gte` start and `lte` end.
 */
export function lookupPairs(input: Record<string, unknown>): LookupPair[] {
  const pairs: LookupPair[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined) continue;
    if (key === 'filter_lookup' || key === 'comparison_lookup') pairs.push(...lookupPairs(value as Record<string, unknown>));
    else if (key === 'range' || key === 'range_lookup') {
      const { start, end } = value as { start?: unknown; end?: unknown };
      if (start !== null && start !== undefined) pairs.push({ key, lookup: 'gte', value: start });
      if (end !== null && end !== undefined) pairs.push({ key, lookup: 'lte', value: end });
    } else pairs.push({ key, lookup: KERNEL_LOOKUPS[key], value });
  }
  return pairs;
}

/** Which lookups a kind of value offers. */
export type LookupKind = 'text' | 'ordered' | 'boolean' | 'id' | 'enum';

const TEXT_KEYS = ['exact', 'i_exact', 'contains', 'i_contains', 'starts_with', 'i_starts_with', 'ends_with', 'i_ends_with', 'regex', 'i_regex'];
const ORDER_KEYS = ['exact', 'gt', 'gte', 'lt', 'lte'];

/**
 * The lookup input for values of GraphQL type `scalar` (`String`, `Int`, `DateTime`, an enum's name…), made once
 * per schema: `StrFilterLookup`, `IntegerLookup`, `DatetimeFilterLookup`, `SiteStatusEnumLookup`…
 */
export function lookupInput(composer: SchemaComposer<unknown>, kind: LookupKind, scalar: string): string {
  const names: Record<LookupKind, string> = {
    text: scalar === 'String' ? 'StrFilterLookup' : `${scalar}FilterLookup`,
    ordered: ({ Int: 'IntegerLookup', Float: 'FloatLookup', BigInt: 'BigIntLookup', DateTime: 'DatetimeFilterLookup', Date: 'DateFilterLookup' } as Record<string, string>)[scalar] ?? `${scalar}Lookup`,
    boolean: 'BoolFilterLookup',
    id: 'IDFilterLookup',
    enum: `${scalar}Lookup`,
  };
  const name = names[kind];
  if (composer.has(name)) return name;
  const fields: Record<string, string> = {};
  const keys = kind === 'text' ? TEXT_KEYS : kind === 'ordered' ? ORDER_KEYS : ['exact'];
  for (const key of keys) fields[key] = scalar;
  fields.in_list = `[${scalar}!]`;
  fields.is_null = 'Boolean';
  if (kind === 'ordered') {
    const range = `${scalar}RangeLookup`;
    if (!composer.has(range)) composer.createInputTC({ name: range, fields: { start: scalar, end: scalar } });
    fields.range = range;
    // NetBox's one-of wrappers of the same lookups.
    const comparison = `${scalar}ComparisonLookup`;
    if (!composer.has(comparison)) composer.createInputTC({ name: comparison, fields: { ...fields } });
    Object.assign(fields, { filter_lookup: comparison, comparison_lookup: comparison, range_lookup: range });
  }
  composer.createInputTC({
    name,
    description: 'Lookups of one field, ANDed; a bare value means `exact`, a bare list `in_list`.',
    fields,
  });
  return name;
}

/** The kernel's lookups → the suffixes of the REST filters (`icontains` → `ic`). */
const SUFFIXES: Record<string, string> = {
  exact: '', in: '', iexact: 'ie', icontains: 'ic', istartswith: 'isw', iendswith: 'iew', regex: 'regex', iregex: 'iregex',
  gt: 'gt', gte: 'gte', lt: 'lt', lte: 'lte', isnull: 'empty',
};

/**
 * A lookup object compiled through a REST query filter: each lookup selects what `?<filter>__<suffix>=<value>`
 * would, ANDed. A lookup the filter has no suffix for is a ParamError naming it.
 */
export async function viaQueryFilter(filter: QueryFilter, input: Record<string, unknown>, ctx: FilterContext): Promise<FilterNode> {
  const nodes: FilterNode[] = [];
  for (const { key, lookup, value } of lookupPairs(input)) {
    const suffix = SUFFIXES[lookup];
    if (suffix === undefined || (suffix !== '' && !filter.suffixes.includes(suffix))) throw new ParamError(`the '${key}' lookup does not apply here.`);
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    nodes.push(await filter.build(suffix, values, ctx));
  }
  return and(nodes);
}
