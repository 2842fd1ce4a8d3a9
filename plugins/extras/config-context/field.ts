import {
  ReadOnlyField, type FieldRenderer, type JsonObject, type ModelRegistry, type RenderContext, type RenderMode, type Row, type SelectedSql, type ValueSchema,
} from 'patchbay';
import { mergeContexts } from './merge.js';
import { contextRows, contextStatement, type PageContexts } from './query.js';

/**
 * `config_context` of a device or virtual machine: the data of every active context assigned to it, merged by
 * weight, then its `local_context_data`. A page's contexts come from one statement; objects that share the same
 * contexts and have no data of their own share one merge. An object read whole on its own (a detail, the object a
 * configuration renders) brings its contexts' data with it (`selected`): no statement of their own.
 */
export class ConfigContextField extends ReadOnlyField {
  private statement?: (db: RenderContext['db'], ids: number[]) => Promise<PageContexts>;
  private rows?: ReturnType<typeof contextRows>;

  constructor() {
    super({ label: 'Config context', nullable: true });
  }

  protected schema(): ValueSchema {
    return { type: 'json' };
  }

  override get rendersNested(): boolean {
    return false;
  }

  override reads(): string[] {
    return ['local_context_data'];
  }

  override verify(registry: ModelRegistry): void {
    this.rows = contextRows(this.model, registry);
  }

  /** The data of the contexts that apply to each of `ids`, lowest weight first (NULL for none), beside the row. */
  override selected(ids: readonly number[]): SelectedSql | undefined {
    if (!this.rows) return undefined;
    const { sql, bindings } = this.rows(ids);
    return { sql: 'config_contexts.datas', bindings: [], joined: { alias: 'config_contexts', sql, bindings } };
  }

  /**
   * The config context of each row (rows carry `id` and `local_context_data`, and the data of their contexts when
   * read with it), by id.
   */
  async contextsOf(rows: Row[], ctx: Pick<RenderContext, 'db' | 'registry'>): Promise<Map<number, JsonObject>> {
    if (rows.every((row) => Object.hasOwn(row, this.name))) {
      return new Map(rows.map((row) => [row.id as number, mergeContexts((row[this.name] as JsonObject[] | null) ?? [], row.local_context_data)]));
    }
    this.statement ??= contextStatement(this.model, ctx.registry);
    const ids = rows.map((r) => r.id as number);
    const { matched, data } = ids.length ? await this.statement(ctx.db, ids) : { matched: {}, data: {} };
    const shared = new Map<string, JsonObject>();
    return new Map(
      rows.map((row) => {
        const list = matched[row.id as number] ?? [];
        const own = row.local_context_data;
        if (own && typeof own === 'object' && Object.keys(own).length) return [row.id as number, mergeContexts(list.map((c) => data[c]), own)];
        const key = list.join(',');
        if (!shared.has(key)) shared.set(key, mergeContexts(list.map((c) => data[c]), null));
        return [row.id as number, shared.get(key)!];
      }),
    );
  }

  async prepare(rows: Row[], ctx: RenderContext, mode: RenderMode): Promise<FieldRenderer> {
    if (mode === 'nested') return () => {};
    const contexts = await this.contextsOf(rows, ctx);
    return (row, out) => {
      out[this.name] = contexts.get(row.id as number) ?? {};
    };
  }
}
