import {
  ReadOnlyField, lastValue, parseBoolean, plainRenderer, type FieldRenderer, type FilterNode, type QueryFilter, type ValueSchema,
} from 'patchbay';

/** A filter on one SQL condition over the row aliased `a` (true) or its negation (false). */
function flag(condition: (alias: string) => string): QueryFilter {
  return {
    suffixes: [],
    value: { type: 'boolean' },
    build: (_suffix, values): FilterNode => {
      const wanted = parseBoolean(lastValue(values));
      return { op: 'sql', condition: (qb, alias) => void qb.whereRaw(wanted ? condition(alias) : `not (${condition(alias)})`) };
    },
  };
}

/** `_occupied`: a cable is attached, or the object is marked connected; `?occupied=` and `?cabled=`. */
export class OccupiedField extends ReadOnlyField {
  protected schema(): ValueSchema {
    return { type: 'boolean' };
  }

  override reads(): string[] {
    return ['cable_id', 'mark_connected'];
  }

  prepare(): FieldRenderer {
    return plainRenderer(this.name, (row) => row.cable_id !== null && row.cable_id !== undefined ? true : Boolean(row.mark_connected));
  }

  override filters(): Record<string, QueryFilter> {
    return {
      occupied: flag((a) => `${a}.cable_id is not null or ${a}.mark_connected`),
      cabled: flag((a) => `${a}.cable_id is not null`),
    };
  }

  override snapshot(): undefined {
    return undefined;
  }
}
