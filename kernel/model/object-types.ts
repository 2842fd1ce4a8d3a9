import type { Model } from './model.js';
import type { Db } from '../base/types.js';

/**
 * Stable numeric ids of models (`core_objecttype`), as Django's content types: generic relations
 * store the id, the API speaks `app.model`.
 */
export class ObjectTypes {
  private readonly ids = new Map<string, number>();
  private readonly keys = new Map<number, string>();

  /** Adds rows for models seen for the first time and loads the whole table. */
  async sync(db: Db, models: Model[]): Promise<void> {
    if (models.length) {
      await db('core_objecttype')
        .insert(models.map((m) => ({ app_label: m.app, model: m.name })))
        .onConflict(['app_label', 'model'])
        .ignore();
    }
    const rows: { id: number; app_label: string; model: string }[] = await db('core_objecttype').select('id', 'app_label', 'model');
    this.ids.clear();
    this.keys.clear();
    for (const row of rows) {
      const key = `${row.app_label}.${row.model}`;
      this.ids.set(key, row.id);
      this.keys.set(row.id, key);
    }
  }

  idOf(key: string): number | undefined {
    return this.ids.get(key);
  }

  keyOf(id: number): string | undefined {
    return this.keys.get(id);
  }
}
