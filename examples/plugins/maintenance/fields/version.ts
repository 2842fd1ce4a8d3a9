import {
  EQUALITY_LOOKUPS, FilterError, ParamError, ScalarField, cmp, orderedFilter,
  type ExpressionIndex, type LookupSql, type Lookups, type OrderStep, type QueryFilter, type ValueSchema,
} from 'patchbay';

const VERSION = /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/;

/** `1.02.3` → `1.2.3`; undefined when the text is not MAJOR.MINOR.PATCH. */
function normalise(value: unknown): string | undefined {
  const m = typeof value === 'string' ? VERSION.exec(value.trim()) : null;
  return m ? m.slice(1, 4).map(Number).join('.') : undefined;
}

/** The numbers of a version, in SQL: what comparisons and ordering use (an integer array compares element-wise). */
const numbers = (sql: string) => `string_to_array(${sql}, '.')::int[]`;

const compare = (op: string): LookupSql => (qb, column, value) => {
  qb.whereRaw(`${numbers('??')} ${op} ${numbers('?')}`, [column, value as string]);
};

/**
 * A semantic version (`MAJOR.MINOR.PATCH`), defined by this plugin through the kernel's public API: stored as
 * text, compared and ordered by its numbers (1.10.0 comes after 1.9.2), served by an expression index, with a
 * lookup of its own (`__major`). The kernel knows nothing about it.
 */
export class VersionField extends ScalarField {
  protected sqlType(): string {
    return 'varchar(32)';
  }

  protected coerce(value: unknown): string {
    const version = normalise(value);
    if (!version) throw 'Enter a version as MAJOR.MINOR.PATCH, e.g. 1.10.0.';
    return version;
  }

  protected schema(): ValueSchema {
    // GraphQL gives it a scalar of its own, `SemVer`, compared in order like the query-string filters.
    return { type: 'string', format: 'semver', maxLength: 32, scalar: 'SemVer' };
  }

  override lookups(): Lookups {
    return {
      ...EQUALITY_LOOKUPS,
      gt: compare('>'),
      gte: compare('>='),
      lt: compare('<'),
      lte: compare('<='),
      major: (qb, column, value) => {
        qb.whereRaw(`split_part(??, '.', 1)::int = ?`, [column, value as number]);
      },
    };
  }

  override filterValue(value: unknown, lookup: string): unknown {
    if (lookup === 'major') {
      if (!/^\d{1,9}$/.test(String(value))) throw new FilterError(`Expected a major version number, got ${JSON.stringify(value)}.`, 'value');
      return Number(value);
    }
    const version = normalise(value);
    if (!version) throw new FilterError(`Expected a version, got ${JSON.stringify(value)}.`, 'value');
    return version;
  }

  /** The ordered filters (`__gte=1.10.0` compares versions) plus `__major=2`. */
  override filters(): Record<string, QueryFilter> {
    const path = [this.name];
    const ordered = orderedFilter(path, (v) => {
      const version = normalise(v);
      if (!version) throw new ParamError('Enter a version as MAJOR.MINOR.PATCH.');
      return version;
    });
    return {
      [this.name]: {
        suffixes: [...ordered.suffixes, 'major'],
        build: (suffix, values, ctx) => {
          if (suffix !== 'major') return ordered.build(suffix, values, ctx);
          const major = values[values.length - 1];
          if (!/^\d{1,9}$/.test(major)) throw new ParamError('Enter a whole number.');
          return cmp(path, 'major', Number(major));
        },
      },
    };
  }

  /** It orders by its numbers, which no plain index on its column serves (`indexes` adds one that does). */
  override orderColumn(): undefined {
    return undefined;
  }

  override order(step: OrderStep): void {
    if (!step.rest.length) step.qb.orderByRaw(`${numbers('??')} ${step.desc ? 'desc' : 'asc'}`, [`${step.alias}.${this.name}`]);
  }

  override indexes(): ExpressionIndex[] {
    const name = `${this.model.table}_${this.name}_numbers`;
    return [{ name, expression: `create index "${name}" on "${this.model.table}" ((${numbers(`"${this.name}"`)}))` }];
  }
}
