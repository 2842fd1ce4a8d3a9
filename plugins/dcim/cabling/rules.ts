import { ValidationError, type ModelRegistry, type ObjectRef, type Row, type ValidateContext } from 'patchbay';
import { cableRole } from './cabled.js';

/** Whether a cable may join objects of models `a` and `b` (either naming the other, as NetBox's compatibility table). */
export function compatible(registry: ModelRegistry, a: string, b: string): boolean {
  return Boolean(cableRole(registry, a)?.connectsTo?.includes(b) || cableRole(registry, b)?.connectsTo?.includes(a));
}

/**
 * Why object `ref` (its stored row `row`, undefined when there is none) cannot take cable `cable` (undefined while
 * creating it), worded under `key`: it is not there, it is on another cable, or its kind refuses a cable.
 */
export function takenProblem(ref: ObjectRef, row: Row | undefined, cable: number | undefined, key: string, registry: ModelRegistry): ValidationError | undefined {
  if (!row) return ValidationError.of(key, `Related object not found using the provided numeric ID: ${ref.id}`);
  if (row.cable_id && row.cable_id !== cable) return ValidationError.of(key, `Duplicate termination found for ${ref.model} ${ref.id}: cable ${row.cable_id}`);
  const refused = cableRole(registry, ref.model)?.refuse?.(row, registry);
  return refused ? ValidationError.of(key, refused) : undefined;
}

/** The stored rows of `refs`, read (and locked) in one round: locked until the write commits, so two writes cannot both take one. */
export function lockedRows(refs: ObjectRef[], ctx: ValidateContext): Promise<(Row | undefined)[]> {
  return Promise.all(refs.map((ref) => ctx.stored(ctx.registry.get(ref.model), ref.id, { lock: true })));
}

/** Each object of `refs` can take cable `cable` (undefined while creating it): see `takenProblem`. */
export async function checkFree(refs: ObjectRef[], cable: number | undefined, key: string, ctx: ValidateContext): Promise<void> {
  const rows = await lockedRows(refs, ctx);
  for (let n = 0; n < refs.length; n++) {
    const problem = takenProblem(refs[n], rows[n], cable, key, ctx.registry);
    if (problem) throw problem;
  }
}
