import { ParamError, viaQueryFilter, type FilterContribution, type ModelRegistry } from 'patchbay';
import type { Knex } from '@mikro-orm/knex';
import { customFieldFilters } from './custom-field-filters.js';

/** NetBox's `JSONFilter` on custom field data: a field's name (`path`) and one lookup on its value. */
export const CUSTOM_FIELD_FILTER_TYPES = `
input JSONLookup {
  string_lookup: StrFilterLookup
  int_range_lookup: IntRangeLookup
  int_comparison_lookup: IntComparisonLookup
  float_range_lookup: FloatRangeLookup
  float_comparison_lookup: FloatComparisonLookup
  date_lookup: DateFilterLookup
  datetime_lookup: DatetimeFilterLookup
  boolean_lookup: BoolFilterLookup
}
input JSONFilter {
  path: String!
  lookup: JSONLookup!
}`;

interface JsonFilter {
  path: string;
  lookup: Record<string, Record<string, unknown> | null | undefined>;
}

/**
 * `custom_field_data: {path: "owner", lookup: {string_lookup: {i_contains: "net"}}}` on every model with custom
 * fields: compiled through the `cf_<name>` query-string filter, so the field's type and filter logic decide as
 * they do for `?cf_owner__ic=net`.
 */
export function customFieldDataFilter(db: Knex, registry: ModelRegistry): FilterContribution {
  return {
    appliesTo: (model) => model.features.has('customFields'),
    name: 'custom_field_data',
    type: 'JSONFilter',
    async compile(value, model) {
      const { path, lookup } = value as JsonFilter;
      // A field the model does not have is an error here (the query string ignores unknown parameters, as NetBox).
      const defined = await db('extras_customfield').where('name', path).whereRaw('? = any(object_types)', [model.key]).first('id');
      const filter = defined ? customFieldFilters.resolve?.(model, `cf_${path}`) : undefined;
      if (!filter) throw new ParamError(`${model.key} has no custom field ${JSON.stringify(path)}.`);
      const given = Object.values(lookup).filter((l): l is Record<string, unknown> => !!l);
      if (given.length !== 1) throw new ParamError('Give exactly one lookup.');
      return viaQueryFilter(filter, given[0], { db, registry });
    },
  };
}
