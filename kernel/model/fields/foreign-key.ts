import { Field, type Column, type CommonOptions, type FieldMetadata, type WriteContext, type WriteValues, type FilterKind } from '../field.js';
import { resolveRelated } from '../lookup.js';
import type { ModelRegistry } from '../registry.js';
import { ValidationError, type FieldRenderer, type RenderContext, type Row } from '../types.js';

export type OnDelete = 'cascade' | 'set null' | 'protect';

export interface ForeignKeyOptions extends CommonOptions {
  /** What deleting the target does to this object. Default: `set null` when nullable, else `protect`. */
  onDelete?: OnDelete;
  /** Adds a read-only count of objects pointing at each target, under this name, to the target model. */
  countAs?: string;
}

/** A reference to one object of another (or the same) model: read nested, written as id or attributes. */
export class ForeignKeyField<O extends ForeignKeyOptions = ForeignKeyOptions> extends Field<O> {
  override filterKind(): FilterKind | undefined {
    return 'fk';
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
    return [{ name: this.column, type: 'integer', nullable: this.nullable, references: { model: this.target, onDelete }, index: true }];
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r[this.column] as number | null).filter((id): id is number => id !== null && id !== undefined);
    const nested = await ctx.registry.loadNested(ctx.registry.get(this.target), ids, ctx);
    return (row, out) => {
      const id = row[this.column] as number | null;
      out[this.name] = id === null || id === undefined ? null : nested.get(id) ?? null;
    };
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const value = body[this.name];
    if (value === null || value === '') {
      if (!this.nullable) throw ValidationError.of(this.name, 'This field may not be null.');
      out.columns[this.column] = null;
      return;
    }
    const target = ctx.registry.get(this.target);
    out.columns[this.column] = await resolveRelated(ctx.db, target, value, this.name, (k) => ctx.registry.get(k));
  }

  protected metadataType(): string {
    return 'nested object';
  }

  override metadata(registry: ModelRegistry): FieldMetadata {
    const target = registry.get(this.target);
    const children: FieldMetadata = {};
    for (const name of target.brief) {
      const field = target.field(name) ?? registry.extraField(target, name);
      if (field) children[name] = field.metadata(registry);
    }
    return { ...super.metadata(registry), children };
  }
}

/** The `parent` of a tree model: a nullable reference to the same model that may not form a cycle. */
export class ParentField extends ForeignKeyField {
  override async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    await super.parse(body, ctx, out);
    const parentId = out.columns[this.column] as number | null;
    const selfId = ctx.instance?.id as number | undefined;
    if (parentId === null || selfId === undefined) return;
    const table = this.model.table;
    const { rows } = (await ctx.db.raw(
      `with recursive sub(id) as (select ?::int union select t.id from ${table} t join sub on t.parent_id = sub.id)
       select 1 from sub where id = ? limit 1`,
      [selfId, parentId],
    )) as { rows: unknown[] };
    if (rows.length > 0) throw ValidationError.of(this.name, `Cannot assign self or child ${this.model.title} as parent.`);
  }
}
