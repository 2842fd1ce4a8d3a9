import { naturalKey, relationFilter, type QueryFilter } from '../../filters/builders.js';
import { insertAll } from '../../base/batches.js';
import { whereIdIn } from '../../base/typed-arrays.js';
import type { Comparison } from '../../filters/compile.js';
import type { WriteContext, WriteScope } from '../../write/context.js';
import type { ValueSchema } from '../description.js';
import { Field, type Column, type CommonOptions, type DerivedField, type JoinTable, type StoreEntry, type WriteValues } from '../field.js';
import type { Model } from '../model.js';
import type { ModelRegistry } from '../registry.js';
import type { Relate, Walk } from '../walk.js';
import { ValidationError, type FieldRenderer, type JsonObject, type RenderContext, type Row } from '../../base/types.js';
import { CountField } from './computed.js';
import { relatedModel, relationCondition } from './relation.js';
import { appendTo } from '../../base/collections.js';

export interface ManyToManyOptions extends CommonOptions {
  /** Adds a read-only count of objects linked to each target, under this name, to the target model. */
  countAs?: string;
  /** The other side of the target's many-to-many field of this name: same join table, read and written from here. */
  reverseOf?: string;
  /** The target's attribute `?<name>=` matches, when not its slug, username or name (a site's ASNs by `asn`). */
  filterBy?: string;
  /** The name of its filters, `<name>_id` and `<name>` (default: the field's); NetBox's are mostly singular (`group`). */
  filterName?: string;
  /** The list of this model's objects the target offers (GraphQL's `sites` on an ASN). */
  related?: string;
  /** Read and written as the targets' slugs, not nested objects (NetBox's SlugRelatedField: a config context's tags). */
  slugs?: boolean;
}

/** A set of references to another model, kept in a join table; read as a list of nested objects. */
export class ManyToManyField extends Field<ManyToManyOptions> {
  override refersTo(): string[] {
    return [this.target];
  }

  constructor(readonly target: string, options: ManyToManyOptions) {
    super({ required: false, ...options });
  }

  /** The join table, named as Django names it (`tenancy_contact_groups`). */
  get join(): JoinTable {
    const targetName = this.target.split('.')[1];
    if (this.options.reverseOf) {
      return {
        table: `${this.target.replace('.', '_')}_${this.options.reverseOf}`,
        source: `${this.model.name}_id`,
        target: `${targetName}_id`,
        targetModel: this.target,
      };
    }
    const self = targetName === this.model.name;
    return {
      table: `${this.model.table}_${this.name}`,
      source: `${self ? 'from_' : ''}${this.model.name}_id`,
      target: `${self ? 'to_' : ''}${targetName}_id`,
      targetModel: this.target,
    };
  }

  columns(): Column[] {
    return [];
  }

  /** The forward side owns the join table; a `reverseOf` field reads and writes the other side's. */
  override joinTables(): JoinTable[] {
    return this.options.reverseOf ? [] : [this.join];
  }

  override link(registry: ModelRegistry): DerivedField[] {
    const target = relatedModel(registry, this.model, this.name, this.target);
    if (!this.options.countAs) return [];
    const { table, source, target: column } = this.join;
    return [{ model: target, name: this.options.countAs, field: new CountField({ model: this.model.key, table, column, counted: source }, target.isTree) }];
  }

  /** The links of `ids`, in the target model's ordering, with the nested targets. */
  private async linked(ids: number[], ctx: RenderContext): Promise<Map<number, JsonObject[]>> {
    const { table, source, target } = this.join;
    const links: { source: number; target: number }[] = ids.length ? await ctx.db(table).select({ source, target }).modify(whereIdIn, source, ids) : [];
    const nested = await ctx.registry.loadNested(ctx.registry.get(this.target), links.map((l) => l.target), ctx);
    // Lists follow the target model's ordering, which loadNested applied.
    const position = new Map([...nested.keys()].map((id, i) => [id, i]));
    links.sort((a, b) => (position.get(a.target) ?? 0) - (position.get(b.target) ?? 0));
    const bySource = new Map<number, JsonObject[]>();
    for (const link of links) {
      const obj = nested.get(link.target);
      if (!obj) continue;
      const list = bySource.get(link.source);
      if (list) list.push(obj);
      else bySource.set(link.source, [obj]);
    }
    return bySource;
  }

  override walk(key: string): Walk | undefined {
    if (key !== this.name) return undefined;
    const { table, source, target } = this.join;
    return {
      targets: [this.target],
      many: true,
      relate: (qb, alias, parent) => {
        qb.whereRaw(`??.id in (select ?? from ?? where ?? = ${parent})`, [alias, target, table, source]);
      },
    };
  }

  override referring(target: Model): Relate | undefined {
    if (target.key !== this.target) return undefined;
    const { table, source, target: column } = this.join;
    return (qb, alias, parent) => {
      qb.whereRaw(`??.id in (select ?? from ?? where ?? = ${parent})`, [alias, source, table, column]);
    };
  }

  override get related(): string | undefined {
    return this.options.related;
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const bySource = await this.linked(rows.map((r) => r.id as number), ctx);
    const slugs = this.options.slugs;
    return (row, out) => {
      const linked = bySource.get(row.id as number) ?? [];
      out[this.name] = slugs ? linked.map((o) => o.slug) : linked;
    };
  }

  protected schema(): ValueSchema {
    if (this.options.slugs) return { type: 'array', items: { type: 'string' } };
    return { type: 'array', relation: this.target, items: { type: 'object', relation: this.target } };
  }

  /** The ids of the targets with those slugs, in one query; a slug that names none is refused. */
  private async bySlug(slugs: unknown[], ctx: WriteContext): Promise<number[]> {
    const bad = slugs.find((s) => typeof s !== 'string' || s.length > 100);
    if (bad !== undefined) throw ValidationError.of(this.name, 'Invalid value.');
    const target = ctx.registry.get(this.target);
    const found = (slugs.length ? await ctx.db(target.table).select('id', 'slug').whereIn('slug', slugs as string[]) : []) as { id: number; slug: string }[];
    const ids = new Map(found.map((r) => [r.slug, r.id]));
    const missing = (slugs as string[]).find((s) => !ids.has(s));
    if (missing !== undefined) throw ValidationError.of(this.name, `Object with slug=${missing} does not exist.`);
    return (slugs as string[]).map((s) => ids.get(s)!);
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const value = body[this.name];
    if (value === null && this.nullable) {
      out.values[this.name] = [];
      return;
    }
    if (!Array.isArray(value)) {
      const type = value === null ? 'NoneType' : typeof value === 'string' ? 'str' : typeof value === 'number' ? 'int' : typeof value === 'boolean' ? 'bool' : 'dict';
      throw ValidationError.of(this.name, `Expected a list of items but got type "${type}".`);
    }
    const target = ctx.registry.get(this.target);
    const ids = this.options.slugs ? await this.bySlug(value, ctx) : await Promise.all(value.map((item) => ctx.resolve(target, item, this.name)));
    out.values[this.name] = [...new Set(ids)];
  }

  override async store(entries: StoreEntry[], scope: WriteScope): Promise<void> {
    const { table, source, target } = this.join;
    if (scope.mode !== 'create') await scope.db(table).whereIn(source, entries.map((e) => e.id)).delete();
    const links = entries.flatMap((e) => (e.value as number[]).map((t) => ({ [source]: e.id, [target]: t })));
    await insertAll(scope.db, table, links);
  }

  override async snapshot(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const { table, source, target } = this.join;
    const links = (await ctx.db(table).select({ source, target }).whereIn(source, rows.map((r) => r.id as number)).orderBy(target)) as {
      source: number;
      target: number;
    }[];
    const bySource = new Map<number, number[]>();
    for (const link of links) appendTo(bySource, link.source, link.target);
    return (row, out) => {
      out[this.name] = bySource.get(row.id as number) ?? [];
    };
  }

  override filters(registry: ModelRegistry): Record<string, QueryFilter> {
    const target = registry.get(this.target);
    const base = this.options.filterName ?? this.name;
    const filters: Record<string, QueryFilter> = { [`${base}_id`]: relationFilter([this.name], target, 'id', target.isTree) };
    const key = this.options.filterBy ?? naturalKey(target);
    if (key) filters[base] = relationFilter([this.name], target, key, target.isTree);
    return filters;
  }

  override condition(c: Comparison): void {
    const { table, source, target } = this.join;
    relationCondition(c, c.scope.registry.get(this.target), {
      isNull: (qb, alias, isNull) => {
        const linked = c.scope.db(table).select(source);
        if (isNull) qb.whereNotIn(`${alias}.id`, linked);
        else qb.whereIn(`${alias}.id`, linked);
      },
      among: (qb, alias, ids) => {
        qb.whereIn(`${alias}.id`, c.scope.db(table).select(source).whereIn(target, ids));
      },
    });
  }
}
