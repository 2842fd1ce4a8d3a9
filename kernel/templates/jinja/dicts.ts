/** Python dict operations over both representations: JSON objects (string keys) and template-made PyDicts. */
import { raise } from './errors.js';
import { Float, isDict, isTuple, MISSING, PyDict, Undefined, type Dict, type PlainObject } from './values.js';

const identities = new WeakMap<object, number>();
let lastIdentity = 0;

/** Python's hash equality as a string: equal keys (1, 1.0, True) share one. Lists and dicts are unhashable. */
export function hashKey(v: unknown): string {
  if (typeof v === 'string') return 's' + v;
  if (typeof v === 'number' || typeof v === 'boolean') return 'n' + String(Number(v));
  if (v instanceof Float) return 'n' + String(v.value);
  if (v === null || v === undefined) return 'N';
  if (v instanceof Undefined) return 'U';
  if (isTuple(v)) return 't' + JSON.stringify(v.map(hashKey));
  if (Array.isArray(v)) raise('TypeError', "unhashable type: 'list'");
  if (isDict(v)) raise('TypeError', "unhashable type: 'dict'");
  if (typeof v !== 'object' && typeof v !== 'function') return 'o' + typeof v;
  let id = identities.get(v);
  if (id === undefined) identities.set(v, (id = ++lastIdentity));
  return 'o' + id;
}

/** An own data property of a JSON object: never a prototype member, never a getter. */
export function ownValue(o: object, key: string): unknown {
  const desc = Object.getOwnPropertyDescriptor(o, key);
  return desc !== undefined && 'value' in desc ? desc.value : MISSING;
}

export function newDict(entries: Iterable<readonly [unknown, unknown]> = []): PyDict {
  const d = new PyDict();
  for (const [k, v] of entries) dictSet(d, k, v);
  return d;
}

export function dictSize(d: Dict): number {
  return d instanceof PyDict ? d.entries.size : Object.keys(d).length;
}

export function dictKeys(d: Dict): unknown[] {
  return d instanceof PyDict ? [...d.entries.values()].map(([k]) => k) : Object.keys(d);
}

export function dictItems(d: Dict): [unknown, unknown][] {
  if (d instanceof PyDict) return [...d.entries.values()].map(([k, v]) => [k, v]);
  return Object.keys(d).map((k) => [k, ownValue(d, k)]);
}

/** The value for `key`, or MISSING. Raises TypeError for an unhashable key, as Python does. */
export function dictGet(d: Dict, key: unknown): unknown {
  if (typeof key === 'string' && !(d instanceof PyDict)) return ownValue(d, key);
  const hash = hashKey(key);
  if (d instanceof PyDict) {
    const entry = d.entries.get(hash);
    return entry === undefined ? MISSING : entry[1];
  }
  return MISSING;
}

export function dictSet(d: Dict, key: unknown, value: unknown): void {
  const hash = hashKey(key);
  if (d instanceof PyDict) {
    const old = d.entries.get(hash);
    d.entries.set(hash, [old ? old[0] : key, value]);
    return;
  }
  if (typeof key !== 'string') raise('TypeError', 'keys of a dict from JSON data must be strings');
  // defineProperty, not assignment: a '__proto__' key must stay data, never reach the prototype.
  Object.defineProperty(d, key, { value, writable: true, enumerable: true, configurable: true });
}

export function dictDelete(d: Dict, key: unknown): boolean {
  const hash = hashKey(key);
  if (d instanceof PyDict) return d.entries.delete(hash);
  if (typeof key !== 'string' || ownValue(d, key) === MISSING) return false;
  return delete (d as PlainObject)[key];
}

export function dictClear(d: Dict): void {
  if (d instanceof PyDict) d.entries.clear();
  else for (const k of Object.keys(d)) delete d[k];
}
