/** Python dict operations over both representations: JSON objects (string keys) and template-made PyDicts. */
import { raise } from './errors.js';
import { charge, chargeList, chargeStr, DICT_BYTES, entryBytes, listBytes, PAIR_BYTES } from './meter.js';
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
  if (isTuple(v)) {
    // Each item's key prefixed by its length: unambiguous, and linear in the depth (JSON would escape nested quotes
    // again at every level).
    charge(2 * listBytes(v.length));
    const parts = v.map(hashKey);
    let length = 1;
    for (const p of parts) length += p.length + 8;
    chargeStr(length);
    return 't' + parts.map((p) => `${p.length}:${p}`).join('');
  }
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
  charge(DICT_BYTES);
  const d = new PyDict();
  for (const [k, v] of entries) dictSet(d, k, v);
  return d;
}

export function dictSize(d: Dict): number {
  return d instanceof PyDict ? d.entries.size : Object.keys(d).length;
}

export function dictKeys(d: Dict): unknown[] {
  chargeList(dictSize(d));
  if (!(d instanceof PyDict)) return Object.keys(d);
  const out = new Array<unknown>(d.entries.size);
  let i = 0;
  for (const [k] of d.entries.values()) out[i++] = k;
  return out;
}

/** The (key, value) pairs, as new arrays the caller may keep or freeze. */
export function dictItems(d: Dict): [unknown, unknown][] {
  const size = dictSize(d);
  charge((d instanceof PyDict ? 1 : 2) * listBytes(size) + size * PAIR_BYTES);
  if (!(d instanceof PyDict)) return Object.keys(d).map((k) => [k, ownValue(d, k)]);
  const out = new Array<[unknown, unknown]>(size);
  let i = 0;
  for (const [k, v] of d.entries.values()) out[i++] = [k, v];
  return out;
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
    charge(old ? PAIR_BYTES : entryBytes(key));
    d.entries.set(hash, [old ? old[0] : key, value]);
    return;
  }
  if (typeof key !== 'string') raise('TypeError', 'keys of a dict from JSON data must be strings');
  if (ownValue(d, key) === MISSING) charge(entryBytes(key));
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
