import { HttpError } from '../base/errors.js';
import { loadDisplays } from '../model/display.js';
import type { Model } from '../model/model.js';
import type { RenderContext, Row } from '../base/types.js';

/** Rows of one model to delete. */
export interface DeletionStep {
  model: Model;
  rows: Row[];
}

/**
 * What deleting `rows` deletes, dependents first (cascades through every field that refers to the model,
 * as the field kinds say), or a 409 naming the protected dependents that stand in the way.
 * One query per dependent field per model reached: the cost does not grow with the number of rows.
 */
export async function planDeletion(model: Model, rows: Row[], ctx: RenderContext): Promise<DeletionStep[]> {
  const { db, registry } = ctx;
  const steps: DeletionStep[] = [];
  const scheduled = new Map<string, Set<number>>();
  const blockers: { model: Model; row: Row }[] = [];
  const queue: DeletionStep[] = [{ model, rows }];
  while (queue.length) {
    const step = queue.shift()!;
    const seen = scheduled.get(step.model.key) ?? new Set<number>();
    const fresh = step.rows.filter((r) => !seen.has(r.id as number));
    if (!fresh.length) continue;
    fresh.forEach((r) => seen.add(r.id as number));
    scheduled.set(step.model.key, seen);
    steps.push({ model: step.model, rows: fresh });
    const ids = fresh.map((r) => r.id as number);
    for (const { model: dep, reference } of registry.dependents(step.model)) {
      // The database clears `set null` references itself.
      if (reference.onDelete === 'set null') continue;
      const found = (await reference.select(db, ids)) as Row[];
      if (reference.onDelete === 'cascade') queue.push({ model: dep, rows: found });
      else blockers.push(...found.map((row) => ({ model: dep, row })));
    }
  }
  const blocking = blockers.filter((b) => !scheduled.get(b.model.key)?.has(b.row.id as number));
  if (blocking.length) {
    const shown = new Map<string, Map<number, string>>();
    for (const b of blocking) {
      if (!shown.has(b.model.key)) {
        const ids = blocking.filter((x) => x.model === b.model).map((x) => x.row.id as number);
        shown.set(b.model.key, await loadDisplays(b.model, ids, ctx));
      }
    }
    const names = blocking.map((b) => `${shown.get(b.model.key)!.get(b.row.id as number)} (${b.row.id})`).join(', ');
    throw new HttpError(409, {
      detail: `Unable to delete object. ${blocking.length} dependent objects were found: ${names}`,
    });
  }
  return steps.reverse();
}
