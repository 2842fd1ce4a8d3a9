import { existingIds, type QueryFilter } from '../../filters/builders.js';
import type { Comparison } from '../../filters/compile.js';
import { FilterError } from '../../filters/errors.js';
import { cmp, not } from '../../filters/tree.js';
import { parseWholeNumber } from '../../filters/values.js';
import type { ValueSchema } from '../description.js';
import { Field, type Column, type CommonOptions } from '../field.js';
import type { Model } from '../model.js';
import type { ModelRegistry } from '../registry.js';
import type { FieldRenderer, JsonObject, RenderContext, Row } from '../../base/types.js';
import type { Walk } from '../walk.js';
import { appendTo } from '../../base/collections.js';

export interface ReverseOptions extends CommonOptions {
  /** Every object pointing here, as a list (`mac_addresses`); default: the one object, or null (`installed_module`). */
  many?: boolean;
  /** Every key of the nested objects, when not their brief form. */
  nested?: string[];
}

/**
 * The objects of another model whose field (a foreign key or a generic relation) points at this one, read
 * nested and loaded for a page at once; written through the other side.
 */
export class ReverseField extends Field<ReverseOptions> {
  override refersTo(): string[] {
    return [this.source];
  }

  constructor(readonly source: string, readonly via: string, options: ReverseOptions) {
    super({ ...options, readOnly: true });
  }

  columns(): Column[] {
    return [];
  }

  parse(): void {}

  override verify(registry: ModelRegistry): void {
    if (!registry.find(this.source)?.field(this.via)) throw new Error(`${this.model.key}.${this.name}: ${this.source} has no field ${this.via}`);
  }

  protected schema(): ValueSchema {
    const nested = { type: 'object' as const, relation: this.source, ...(this.options.nested ? { nestedKeys: this.options.nested } : {}) };
    return this.options.many ? { type: 'array', items: nested } : nested;
  }

  /** `?installed_module_id=<id>`: the object those of the other side point at (one-to-one reverses only). */
  override filters(registry: ModelRegistry): Record<string, QueryFilter> {
    if (this.options.many) return {};
    const source = registry.get(this.source);
    const via = source.field(this.via)!;
    const model = this.model.key;
    return {
      [`${this.name}_id`]: {
        suffixes: ['n'],
        async build(suffix, values, ctx) {
          const ids = await existingIds(ctx.db, source.table, 'id', values.map(parseWholeNumber));
          const rows = (await ctx.db(source.table).select('*').whereIn('id', ids)) as Row[];
          const targets = rows.flatMap((r) => {
            const ref = via.pointsAt(r, registry);
            return ref && ref.model === model ? [ref.id] : [];
          });
          const node = cmp(['id'], 'in', targets);
          return suffix === 'n' ? not(node) : node;
        },
      },
    };
  }

  /** `members__name`: rows some object of the other side points at, that object matching the rest of the path. */
  override condition(c: Comparison): void {
    const relate = this.walk(this.name, c.scope.registry)?.relate;
    if (!relate || !c.rest.length) throw new FilterError(`'${this.name}' is compared by a field of its objects (${this.name}__<field>).`);
    const { db, registry } = c.scope;
    const source = registry.get(this.source);
    const alias = `${c.alias}_${this.name}`;
    const pointing = db(`${source.table} as ${alias}`).select(db.raw('1')).whereIn(`${alias}.id`, c.matching(source, c.rest, c.lookup, c.value));
    relate(pointing, alias, `"${c.alias}"."id"`);
    c.qb.whereExists(pointing);
  }

  /** The objects of the other side, related in SQL through the field that points here. */
  override walk(key: string, registry: ModelRegistry): Walk | undefined {
    const relate = key === this.name ? registry.get(this.source).field(this.via)!.referring(this.model, registry) : undefined;
    return relate && { targets: [this.source], many: this.options.many ?? false, relate };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const { registry } = ctx;
    const source: Model = registry.get(this.source);
    const via = source.field(this.via)!;
    const ids = rows.map((r) => r.id as number);
    const reference = via.references(this.model, registry);
    if (!reference) throw new Error(`${this.model.key}.${this.name}: ${this.source}.${this.via} does not refer to ${this.model.key}`);
    const pointing = ids.length ? ((await reference.select(ctx.db, ids).orderBy('id')) as Row[]) : [];
    const nested = await registry.loadNested(source, pointing.map((r) => r.id as number), ctx, this.options.nested);
    const byTarget = new Map<number, JsonObject[]>();
    for (const row of pointing) {
      const target = via.pointsAt(row, registry)?.id;
      const object = nested.get(row.id as number);
      if (target !== undefined && object) appendTo(byTarget, target, object);
    }
    const { name, options } = this;
    return (row, out) => {
      const found = byTarget.get(row.id as number) ?? [];
      out[name] = options.many ? found : found[0] ?? null;
    };
  }
}
