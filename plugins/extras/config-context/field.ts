import { ReadOnlyField, type FieldRenderer, type JsonObject, type RenderContext, type RenderMode, type Row, type ValueSchema } from 'patchbay';
import { mergeContexts } from './merge.js';
import { contextStatement, type PageContexts } from './query.js';

/**
 * `config_context` of a device or virtual machine: the data of every active context assigned to it, merged by
 * weight, then its `local_context_data`. A page's contexts come from one statement; objects that share the same
 * contexts and have no data of their own share one merge.
 */
export class ConfigContextField extends ReadOnlyField {
  private statement?: (db: RenderContext['db'], ids: number[]) => Promise<PageContexts>;

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

  /** The config context of each row (rows carry `id` and `local_context_data`), by id. */
  async contextsOf(rows: Row[], ctx: Pick<RenderContext, 'db' | 'registry'>): Promise<Map<number, JsonObject>> {
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
