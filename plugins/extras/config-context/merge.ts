import type { Json, JsonObject } from 'patchbay';

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets `key` as an own property, even `__proto__` (which plain assignment would take for the prototype). */
function put(target: JsonObject, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * NetBox's `deepmerge`: `update` merged into a copy of `base`. Objects merge key by key; anything else (lists,
 * scalars, and an empty object) replaces. Keys keep their place; new keys come last. Neither input is changed.
 */
export function deepMerge(base: JsonObject, update: JsonObject): JsonObject {
  const merged: JsonObject = {};
  for (const key of Object.keys(base)) put(merged, key, base[key]);
  for (const key of Object.keys(update)) {
    const value = update[key];
    const current = Object.hasOwn(base, key) ? base[key] : undefined;
    if (isObject(current) && isObject(value) && Object.keys(value).length > 0) put(merged, key, deepMerge(current, value));
    else put(merged, key, value);
  }
  return merged;
}

/** The contexts' data merged in order (lowest weight first), then the object's own data last. */
export function mergeContexts(datas: JsonObject[], local: unknown): JsonObject {
  let merged: JsonObject = {};
  for (const data of datas) merged = deepMerge(merged, data);
  return isObject(local) && Object.keys(local).length > 0 ? deepMerge(merged, local) : merged;
}
