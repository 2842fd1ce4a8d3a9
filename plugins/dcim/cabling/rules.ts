import { ValidationError, type ModelRegistry, type ObjectRef, type Row, type ValidateContext } from '../../../kernel/index.js';
import { cableRole } from './cabled.js';

/** Whether a cable may join objects of models `a` and `b` (either naming the other, as NetBox's compatibility table). */
export function compatible(registry: ModelRegistry, a: string, b: string): boolean {
  return Boolean(cableRole(registry, a)?.connectsTo?.includes(b) || cableRole(registry, b)?.connectsTo?.includes(a));
}

/**
 * Each object of `refs` can take cable `cable` (undefined while creating it): it is not on another cable and its
 * kind allows a cable. The objects are locked until the write commits, so two writes cannot both take one.
 */
export async function checkFree(refs: ObjectRef[], cable: number | undefined, key: string, ctx: ValidateContext): Promise<void> {
  // Read (and locked) in one round.
  const rows = await Promise.all(refs.map((ref) => ctx.stored(ctx.registry.get(ref.model), ref.id, { lock: true })));
  for (const [n, ref] of refs.entries()) {
    const row: Row | undefined = rows[n];
    if (!row) throw ValidationError.of(key, `Related object not found using the provided numeric ID: ${ref.id}`);
    if (row.cable_id && row.cable_id !== cable) throw ValidationError.of(key, `Duplicate termination found for ${ref.model} ${ref.id}: cable ${row.cable_id}`);
    const refused = cableRole(ctx.registry, ref.model)?.refuse?.(row, ctx.registry);
    if (refused) throw ValidationError.of(key, refused);
  }
}
