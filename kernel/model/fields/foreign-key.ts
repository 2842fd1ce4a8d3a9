import { naturalKey, relationFilter, type QueryFilter } from '../../filters/builders.js';
import type { Comparison } from '../../filters/compile.js';
import type { WriteContext, WriteScope } from '../../write/context.js';
import type { ValueSchema } from '../description.js';
import { Field, type CheckEntry, type Column, type CommonOptions, type DerivedField, type ObjectRef, type Reference, type WriteValues } from '../field.js';
import type { Model } from '../model.js';
import type { OrderStep } from '../ordering.js';
import type { ModelRegistry } from '../registry.js';
import { ValidationError, type ErrorMap, type FieldRenderer, type RenderContext, type Row } from '../../base/types.js';
import { CountField, DepthField } from './computed.js';
import { relatedModel, relationCondition } from './relation.js';
import { relateByColumn, type Relate, type Walk } from '../walk.js';

export type OnDelete = 'cascade' | 'set null' | 'protect';

export interface ForeignKeyOptions extends CommonOptions {
  /** What deleting the target does to this object. Default: `set null` when nullable, else `protect`. */
  onDelete?: OnDelete;
  /** Adds a read-only count of objects pointing at each target, under this name, to the target model. */
  countAs?: string;
  /** The count joins the target's brief form (device roles show their `virtualmachine_count`). */
  countInBrief?: boolean;
  /** The target's attribute `?<name>=` matches, when not its slug, username or name (`model` of a module type). */
  filterBy?: string;
  /** Every key of the target when nested here (`['id', 'url', 'display', 'name']`), where NetBox nests another form than the brief one. */
  nested?: string[];
  /**
   * Ordered by this relation, objects sort by its key, those without one first (NetBox's `F('vrf').asc(nulls_first=True)`:
   * prefixes of the global table, then each VRF's in the VRFs' order of creation), which an index serves.
   */
  nullsFirst?: boolean;
  /** The list of this model's objects the target offers (GraphQL's `devices` on a site). */
  related?: string;
  /**
   * `false`: no foreign key constraint, for rows derived from the target that the model's own code writes and
   * deletes with it (a path's nodes), where checking every row inserted against the target would cost a lookup each.
   */
  constraint?: false;
}

/** A reference to one object of another (or the same) model: read nested, written as id or attributes. */
export class ForeignKeyField<O extends ForeignKeyOptions = ForeignKeyOptions> extends Field<O> {
  override refersTo(): string[] {
    return [this.target];
  }

  constructor(readonly target: string, options: O) {
    super(options);
  }

  get column(): string {
    return `${this.name}_id`;
  }

  get onDelete(): OnDelete {
    return this.options.onDelete ?? (this.nullable ? 'set null' : 'protect');
  }

  columns(): Column[] {
    const onDelete = this.onDelete === 'protect' ? 'restrict' : this.onDelete;
    return [{ name: this.column, type: 'integer', nullable: this.nullable, references: { model: this.target, onDelete, ...(this.options.constraint === false && { constraint: false as const }) }, index: true }];
  }

  override link(registry: ModelRegistry): DerivedField[] {
    const target = relatedModel(registry, this.model, this.name, this.target);
    if (!this.options.countAs) return [];
    const source = { model: this.model.key, table: this.model.table, column: this.column, counted: 'id' };
    return [{ model: target, name: this.options.countAs, field: new CountField(source, target.isTree), brief: this.options.countInBrief }];
  }

  override verify(registry: ModelRegistry): void {
    const target = registry.get(this.target);
    const unknown = this.options.nested?.find((key) => !registry.fieldOf(target, key));
    if (unknown) throw new Error(`${this.model.key}.${this.name}: nested field "${unknown}" is not a field of ${target.key}`);
    if (this.options.filterBy && !target.field(this.options.filterBy)) throw new Error(`${this.model.key}.${this.name}: filterBy "${this.options.filterBy}" is not a field of ${target.key}`);
  }

  override references(target: Model): Reference | undefined {
    if (target.key !== this.target) return undefined;
    return { onDelete: this.onDelete, select: (db, ids) => db(this.model.table).select('*').whereIn(this.column, ids) };
  }

  override pointsAt(row: Row): ObjectRef | null {
    const id = row[this.column] as number | null | undefined;
    return id === null || id === undefined ? null : { model: this.target, id };
  }

  override walk(key: string): Walk | undefined {
    return key === this.name ? { targets: [this.target], many: false, refs: () => (row) => this.pointsAt(row) } : undefined;
  }

  override referring(target: Model): Relate | undefined {
    if (target.key !== this.target) return undefined;
    const { column } = this;
    return relateByColumn(this.name, column, (qb, alias, parent, bindings) => void qb.whereRaw(`?? = ${parent}`, [`${alias}.${column}`, ...bindings]));
  }

  override get related(): string | undefined {
    return this.options.related;
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const { column, name } = this;
    const ids = rows.map((r) => r[column] as number | null).filter((id): id is number => id !== null && id !== undefined);
    const nested = await ctx.registry.nestedById(ctx.registry.get(this.target), ids, ctx, this.options.nested);
    return (row, out) => {
      const id = row[column] as number | null;
      out[name] = id === null || id === undefined ? null : nested.get(id) ?? null;
    };
  }

  protected schema(): ValueSchema {
    return { type: 'object', relation: this.target, ...(this.options.nested ? { nestedKeys: this.options.nested } : {}) };
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const value = body[this.name];
    if (value === null || value === '') {
      if (!this.nullable) throw ValidationError.of(this.name, 'This field may not be null.');
      out.columns[this.column] = out.values[this.name] = null;
      return;
    }
    out.columns[this.column] = out.values[this.name] = await ctx.resolve(ctx.registry.get(this.target), value, this.name);
  }

  override filters(registry: ModelRegistry): Record<string, QueryFilter> {
    const target = registry.get(this.target);
    const tree = target.isTree && !this.treeParent;
    const filters: Record<string, QueryFilter> = { [`${this.name}_id`]: relationFilter([this.name], target, 'id', tree) };
    const key = this.options.filterBy ?? naturalKey(target);
    if (key) filters[this.name] = relationFilter([this.name], target, key, tree);
    return filters;
  }

  override condition(c: Comparison): void {
    relationCondition(c, c.scope.registry.get(this.target), {
      isNull: (qb, alias, isNull) => {
        if (isNull) qb.whereNull(`${alias}.${this.column}`);
        else qb.whereNotNull(`${alias}.${this.column}`);
      },
      among: (qb, alias, ids) => {
        qb.whereIn(`${alias}.${this.column}`, ids);
      },
    });
  }

  override orderColumn(): string | undefined {
    return this.options.nullsFirst ? this.column : undefined;
  }

  override orderNullsFirst(): boolean {
    return !!this.options.nullsFirst;
  }

  /** A related path orders by the target's field; the relation alone by its key (`nullsFirst`) or the target's own ordering. */
  override order(step: OrderStep): void {
    const target = step.registry.get(this.target);
    if (this.options.nullsFirst && !step.rest.length) {
      step.qb.orderByRaw(`?? ${step.desc ? 'desc nulls last' : 'asc nulls first'}`, [`${step.alias}.${this.column}`]);
      return;
    }
    const alias = step.join(target, this.column, !this.nullable);
    if (step.rest.length) return step.visit(target, alias, step.rest, step.desc);
    for (const term of target.ordering) step.visit(target, alias, [term.replace(/^-/, '')], term.startsWith('-') !== step.desc);
  }
}

/** The `parent` of a tree model: a nullable reference to the same model that may not form a cycle. */
export class ParentField extends ForeignKeyField {
  override get treeParent(): boolean {
    return true;
  }

  override link(registry: ModelRegistry): DerivedField[] {
    return [...super.link(registry), { model: this.model, name: '_depth', field: new DepthField() }];
  }

  /**
   * No object may become its own ancestor, with every move of the write applied: one query reads the stored
   * ancestors of every new parent, then each moved object walks up through the new tree.
   */
  override async check(entries: CheckEntry[], scope: WriteScope): Promise<(ErrorMap | undefined)[]> {
    const moved = new Map(entries.flatMap((e) => (e.id === undefined ? [] : [[e.id, e.value as number | null]])));
    const parents = [...new Set([...moved.values()].filter((p): p is number => p !== null))];
    if (!parents.length) return entries.map(() => undefined);
    const table = this.model.table;
    const { rows } = (await scope.db.raw(
      `with recursive up(id, parent_id) as (select id, parent_id from ${table} where id = any(?)
         union select t.id, t.parent_id from ${table} t join up on t.id = up.parent_id)
       select id, parent_id from up`,
      [parents],
    )) as { rows: { id: number; parent_id: number | null }[] };
    const stored = new Map(rows.map((r) => [r.id, r.parent_id]));
    const parentOf = (id: number) => (moved.has(id) ? moved.get(id)! : stored.get(id) ?? null);
    const message = { [this.name]: [`Cannot assign self or child ${this.model.title} as parent.`] };
    return entries.map((e) => {
      if (e.id === undefined) return undefined;
      const seen = new Set<number>();
      for (let node = e.value as number | null; node !== null && !seen.has(node); node = parentOf(node)) {
        if (node === e.id) return message;
        seen.add(node);
      }
      return undefined;
    });
  }

  /**
   * Ordering by a tree's parent is the tree's order: depth-first, siblings by name (NetBox's MPTT order); a
   * longer path (`parent__name`) orders by the parent's field.
   */
  override order(step: OrderStep): void {
    if (step.rest.length) return super.order(step);
    const table = this.model.table;
    step.qb.orderByRaw(
      `(with recursive up(id, parent_id, name, depth) as (
          select id, parent_id, name, 0 from ${table} where id = ??
          union all select p.id, p.parent_id, p.name, up.depth + 1 from ${table} p join up on p.id = up.parent_id where up.depth < 100)
        select array_agg(name order by depth desc) from up) ${step.desc ? 'desc' : 'asc'}`,
      [`${step.alias}.id`],
    );
  }

  override filters(registry: ModelRegistry): Record<string, QueryFilter> {
    const filters = super.filters(registry);
    const key = naturalKey(this.model);
    filters.ancestor_id = relationFilter([this.name], this.model, 'id', true);
    if (key) filters.ancestor = relationFilter([this.name], this.model, key, true);
    return filters;
  }
}
