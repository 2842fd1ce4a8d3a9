import { Field, type Column, type CommonOptions, type WriteContext, type WriteValues, type FilterKind } from '../field.js';
import { resolveRelated } from '../lookup.js';
import { ValidationError, type FieldRenderer, type JsonObject, type RenderContext, type Row } from '../types.js';

export interface ManyToManyOptions extends CommonOptions {
  /** Adds a read-only count of objects linked to each target, under this name, to the target model. */
  countAs?: string;
  /** The other side of the target's many-to-many field of this name: same join table, read and written from here. */
  reverseOf?: string;
}

/** The join table of a many-to-many field, named as Django names it (`tenancy_contact_groups`). */
export interface JoinTable {
  table: string;
  source: string;
  target: string;
}

/** A set of references to another model, kept in a join table; read as a list of nested objects. */
export class ManyToManyField extends Field<ManyToManyOptions> {
  override filterKind(): FilterKind | undefined {
    return 'm2m';
  }

  constructor(readonly target: string, options: ManyToManyOptions) {
    super({ required: false, ...options });
  }

  get join(): JoinTable {
    const targetName = this.target.split('.')[1];
    if (this.options.reverseOf) {
      return {
        table: `${this.target.replace('.', '_')}_${this.options.reverseOf}`,
        source: `${this.model.name}_id`,
        target: `${targetName}_id`,
      };
    }
    const self = targetName === this.model.name;
    return {
      table: `${this.model.table}_${this.name}`,
      source: `${self ? 'from_' : ''}${this.model.name}_id`,
      target: `${self ? 'to_' : ''}${targetName}_id`,
    };
  }

  columns(): Column[] {
    return [];
  }

  override orderColumn(): undefined {
    return undefined;
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const { table, source, target } = this.join;
    const links: { source: number; target: number }[] = ids.length
      ? await ctx.db(table).select({ source, target }).whereIn(source, ids)
      : [];
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
    return (row, out) => {
      out[this.name] = bySource.get(row.id as number) ?? [];
    };
  }

  async parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> {
    const value = body[this.name];
    if (value === null && this.nullable) {
      out.m2m.set(this.name, []);
      return;
    }
    if (!Array.isArray(value)) {
      const type = value === null ? 'NoneType' : typeof value === 'string' ? 'str' : typeof value === 'number' ? 'int' : typeof value === 'boolean' ? 'bool' : 'dict';
      throw ValidationError.of(this.name, `Expected a list of items but got type "${type}".`);
    }
    const target = ctx.registry.get(this.target);
    const ids: number[] = [];
    for (const item of value) ids.push(await resolveRelated(ctx.db, target, item, this.name, (k) => ctx.registry.get(k)));
    out.m2m.set(this.name, [...new Set(ids)]);
  }

  override async snapshot(row: Row, ctx: RenderContext): Promise<JsonObject> {
    const { table, source, target } = this.join;
    const ids = (await ctx.db(table).where(source, row.id as number).orderBy(target).pluck(target)) as number[];
    return { [this.name]: ids };
  }

  protected metadataType(): string {
    return 'field';
  }
}
