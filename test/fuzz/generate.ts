import type { PropertyDescription } from '../../kernel/model/description.js';
import type { Model } from '../../kernel/model/model.js';
import type { PatchbayServer } from '../../kernel/server.js';

/** A seeded pseudo-random source (mulberry32): the same seed, the same requests. */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  some<T>(items: readonly T[], max: number): T[] {
    return Array.from({ length: 1 + this.int(max) }, () => this.pick(items));
  }
}

/** Query-string values chosen to break parsers: wrong types, out of range, malformed, hostile. */
export const HOSTILE_TEXT = [
  '', ' ', 'abc', '0', '-1', '1', '2147483648', '-2147483649', '99999999999999999999', '1e308', '1.5', 'NaN', 'Infinity',
  'true', 'false', 'null', 'None', '2024-02-30', '2024-02-31T25:61:00Z', '2024-13-01', '0000-00-00', '0000-01-01', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z',
  '\u0000', 'a\u0000b', '\ud800', '\udfff', '😀', '%00', '%', '[', '(', '(a+)+$', '\\', '*', '?', "'", '"', "'; drop table x; --",
  '../../etc/passwd', '<script>alert(1)</script>', 'x'.repeat(5000), '10.0.0.0/8', 'abc/99', '::1', '1.2.3.4/33', 'tenancy.tenant',
  'nope.model', 'users.user', '$user', '{}', '[]', '{"a":1}', 'dcim.site', '-', '__', 'é', 'ＡＢＣ', '0x10', '+1', ' 1 ', '1,2',
];

/** JSON values for written fields: every type, edge numbers, hostile text, nesting. */
export const HOSTILE_JSON: unknown[] = [
  null, true, false, 0, -1, 1, 2147483647, 2147483648, -2147483649, -9223372036854775808, 1e308, -1e308, 0.5, 1.5, '',
  ' ', 'x', 'x'.repeat(1000), '\u0000', 'a\u0000', '\ud800', '😀', '2024-02-30', '2024-02-29T24:00:00Z', '0000-01-01', '0000-01-01T00:00:00Z', 'abc', '1', 'null',
  [], [null], [1, 2], ['a'], [{}], [[]], {}, { id: 1 }, { id: 'abc' }, { name: 'x' }, { slug: { slug: 'x' } }, { name__regex: '[' },
  { parent: { parent: { id: 1 } } }, { colour: 1 }, { id: 99999999999 }, { '': 1 }, { '\u0000': 1 }, 'tenancy.tenant', 'nope.nope',
  '10.0.0.1/33', 'gold', 'scheduled', '1.10.0', 'v2', JSON.parse('{"__proto__": {"polluted": true}}'),
];

/** Ids for detail URLs and bulk bodies. */
export const HOSTILE_IDS = ['1', '2', '3', '0', '-1', 'abc', '1e3', '99999999999', '2147483648', '%00', '1.0', '01', ' 1'];

/** What the fuzzer knows about one model: its paths, the keys it reads and writes, its filters. */
export interface ModelTarget {
  model: Model;
  path: string;
  properties: PropertyDescription[];
  /** Filter parameters: names and names with their suffixes. */
  params: string[];
}

/** Every model of every enabled plugin, described from its declaration and its filter set. */
export function targets(server: PatchbayServer): ModelTarget[] {
  const { registry, filters } = server;
  return registry.all().filter((model) => model.served).map((model) => {
    const properties = registry.outputFields(model, 'full').flatMap((f) => f.describe(registry));
    const params = [...filters.of(model).entries()].flatMap(([name, filter]) => [name, ...filter.suffixes.map((s) => `${name}__${s}`)]);
    // Filters resolved at request time (custom fields) and ones a client may guess.
    params.push('cf_note', 'cf_note__ic', 'cf_note__regex', 'cf_note__empty', 'cf_count__gte', 'nonexistent', 'id__in', 'name__xyz');
    return { model, path: registry.apiPath(model), properties, params };
  });
}

/** A query string of a few hostile filters, plus list-shaping parameters now and then. */
export function listQuery(r: Random, target: ModelTarget): string {
  const params = new URLSearchParams();
  for (const name of r.some(target.params, 4)) params.append(name, r.pick(HOSTILE_TEXT));
  if (r.chance(0.3)) params.set('ordering', r.some([...target.properties.map((p) => p.key), 'nope', '-name', 'group__name', '__'], 3).join(','));
  if (r.chance(0.2)) params.set('limit', r.pick(HOSTILE_TEXT));
  if (r.chance(0.2)) params.set('offset', r.pick(HOSTILE_TEXT));
  if (r.chance(0.1)) params.set('start', r.pick(HOSTILE_TEXT));
  if (r.chance(0.15)) params.set(r.pick(['fields', 'omit', 'exclude']), r.some([...target.properties.map((p) => p.key), 'nope', 'config_context'], 3).join(','));
  if (r.chance(0.15)) params.set('brief', r.pick(['1', 'true', '0', '']));
  return params.toString();
}

/** A written body: some of the model's writable keys with hostile or plausible values, sometimes a changelog message. */
export function body(r: Random, target: ModelTarget): Record<string, unknown> {
  const writable = target.properties.filter((p) => !p.readOnly);
  const out: Record<string, unknown> = {};
  for (const p of r.some(writable.length ? writable : target.properties, 5)) out[p.key] = value(r, p);
  if (r.chance(0.1)) out.changelog_message = r.pick(HOSTILE_JSON);
  if (r.chance(0.1)) out[r.pick(['unknown', 'id', '__proto__', 'custom_fields'])] = r.pick(HOSTILE_JSON);
  return out;
}

/** A value for one key: often hostile, sometimes of the right shape. */
function value(r: Random, p: PropertyDescription): unknown {
  if (r.chance(0.6)) return r.pick(HOSTILE_JSON);
  if (p.choices?.length) return r.pick(p.choices).value;
  switch (p.type) {
    case 'integer':
      return r.int(100);
    case 'number':
      return r.next() * 100;
    case 'boolean':
      return r.chance(0.5);
    case 'array':
      return r.some([1, 2, 'x', { name: 'x' }], 3);
    case 'object':
      return p.relation ? r.pick([1, 2, { id: 1 }, { name: 'x' }]) : { note: 'x', count: r.int(10) };
    default:
      return `fuzz ${r.int(1_000_000)}`;
  }
}
