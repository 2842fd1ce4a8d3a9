import { ParamError, ScalarField, lastValue, type CommonOptions, type FilterNode, type QueryFilter, type ValueSchema } from 'patchbay';

export const VID_MIN = 1;
export const VID_MAX = 4094;

export type VidRange = [number, number];

/** `1-100,200-300`: how NetBox writes ranges in messages. */
export const rangesText = (ranges: VidRange[]): string => ranges.map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}-${hi}`)).join(', ');

/** Stored ranges as numbers (jsonb reads back as arrays already; a written value is its JSON text). */
export function rangesOf(value: unknown): VidRange[] {
  const ranges = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(ranges) ? (ranges as VidRange[]) : [[VID_MIN, VID_MAX]];
}

/**
 * A VLAN group's `vid_ranges`: inclusive `[low, high]` pairs of VLAN IDs (default `[[1, 4094]]`), written and read
 * as NetBox shows them, kept sorted and merged where they touch; `?contains_vid=` finds the groups holding an ID.
 */
export class VidRangesField extends ScalarField {
  constructor(options: CommonOptions = {}) {
    super({ default: [[VID_MIN, VID_MAX]], ...options });
  }

  protected sqlType(): string {
    return 'jsonb';
  }

  protected coerce(value: unknown): string {
    if (!Array.isArray(value)) throw 'Expected a list of [low, high] ranges.';
    const ranges = value.map((range) => {
      if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n))) throw `Invalid range: ${JSON.stringify(range)}. Expected [low, high].`;
      const [lo, hi] = range as VidRange;
      if (lo < VID_MIN) throw `Starting VLAN ID in range (${lo}) cannot be less than ${VID_MIN}`;
      if (hi > VID_MAX) throw `Ending VLAN ID in range (${hi}) cannot exceed ${VID_MAX}`;
      if (hi < lo) throw `Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (${lo}-${hi})`;
      return [lo, hi] as VidRange;
    });
    ranges.sort((a, b) => a[0] - b[0]);
    const merged: VidRange[] = [];
    for (const range of ranges) {
      const last = merged[merged.length - 1];
      if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
      else merged.push([...range]);
    }
    return JSON.stringify(merged);
  }

  protected schema(): ValueSchema {
    return { type: 'array', items: { type: 'array', items: { type: 'integer', minimum: VID_MIN, maximum: VID_MAX } } };
  }

  override filters(): Record<string, QueryFilter> {
    const column = this.name;
    return {
      contains_vid: {
        suffixes: [],
        build: (_s, values) => {
          const text = lastValue(values).trim();
          if (!/^\d{1,4}$/.test(text)) throw new ParamError('Enter a whole number.');
          const vid = Number(text);
          const node: FilterNode = {
            op: 'sql',
            condition: (qb, alias) =>
              void qb.whereRaw('exists (select 1 from jsonb_array_elements(??) r where (r->>0)::int <= ? and (r->>1)::int >= ?)', [`${alias}.${column}`, vid, vid]),
          };
          return node;
        },
      },
    };
  }
}
