import { HOST, PyError, splitArguments, type TemplateHost } from '@patchbay/jinja';
import type { ModelShape, ObjectQuery, Origin, TemplateRow } from '../messages.js';
import type { Bridge } from './bridge.js';

/** Rows fetched per round trip while a template loops over a queryset. */
const CHUNK = 500;
/** How many objects a printed queryset shows, as Django's repr does. */
const SHOWN = 20;

/** Models' shapes, kept for the process's life: a template process serves one server, whose models do not change. */
const shapes = new Map<string, ModelShape>();

/**
 * What a render's hosts share: the bridge, one host per object (lookups of the same object compare equal), and the
 * keys the render read of each model's objects.
 */
export class HostScope {
  private readonly objects = new Map<string, ObjectHost>();
  private readonly keys = new Map<string, Set<string>>();

  constructor(readonly bridge: Bridge) {}

  /** Notes that the render read `key` of an object of `model`. */
  readKey(model: string, key: string): void {
    let keys = this.keys.get(model);
    if (!keys) this.keys.set(model, (keys = new Set()));
    keys.add(key);
  }

  /** The keys the render read, by model. */
  get read(): Record<string, string[]> {
    return Object.fromEntries([...this.keys].map(([model, keys]) => [model, [...keys]]));
  }

  shape(model: string): ModelShape {
    let shape = shapes.get(model);
    if (!shape) shapes.set(model, (shape = this.bridge.call('shape', model)));
    return shape;
  }

  /** The host of a fetched row (the first host made for the object, if there is one), reached through `origin`. */
  host(row: TemplateRow, origin?: Origin): ObjectHost {
    const key = `${row.model}:${row.id}`;
    let host = this.objects.get(key);
    if (!host) this.objects.set(key, (host = new ObjectHost(this, row, origin)));
    return host;
  }

  /** The object `id` of `model` (null when it does not exist or the reader may not view it). */
  object(model: string, id: number, origin?: Origin): ObjectHost | null {
    const known = this.objects.get(`${model}:${id}`);
    if (known) return known;
    const row = this.bridge.callFrom(origin, 'get', model, id);
    return row ? this.host(row, origin) : null;
  }
}

/** Query-string values from keyword arguments: `filter(status="active", site_id=[1, 2])`. */
function filterParams(keywords: Record<string, unknown>): Record<string, string[]> {
  const params: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(keywords)) {
    const values = Array.isArray(value) ? value : [value];
    params[name] = values.map((v) => {
      if (v === null || v === undefined) return 'null';
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
      if (v instanceof ObjectHost) return String(v.id);
      throw new PyError('TypeError', `filter(${name}=…) takes strings, numbers, booleans or objects`);
    });
  }
  return params;
}

/**
 * A device, a site…: its values, the objects it refers to (fetched when read), its lists of related objects. Reached
 * from the context (`origin`), its reads are ones the next render of the template can have read ahead.
 */
export class ObjectHost implements TemplateHost {
  constructor(
    private readonly scope: HostScope,
    private row: TemplateRow,
    private readonly origin?: Origin,
  ) {}

  get id(): number {
    return this.row.id;
  }

  [HOST](key: string): unknown {
    if (key === 'pk') return this.row.id;
    this.scope.readKey(this.row.model, key);
    if (this.row.partial && !this.holds(key) && this.scope.shape(this.row.model).keys.includes(key)) {
      // A key the template's last render did not read: the whole object, once (not a call to read ahead).
      this.row = this.scope.bridge.call('get', this.row.model, this.row.id, true) ?? { ...this.row, partial: false };
    }
    const { row } = this;
    if (Object.hasOwn(row.values, key)) return row.values[key];
    if (Object.hasOwn(row.refs, key)) {
      const ref = row.refs[key];
      const origin = this.origin && { root: this.origin.root, refs: [...this.origin.refs, key] };
      return ref ? this.scope.object(ref.model, ref.id, origin) : null;
    }
    const { lists } = this.scope.shape(row.model);
    const target = Object.hasOwn(lists, key) ? lists[key] : undefined;
    if (target) return new QuerySetHost(this.scope, { model: target, via: { model: row.model, id: row.id, list: key }, params: {} }, this.origin);
    return undefined;
  }

  private holds(key: string): boolean {
    return Object.hasOwn(this.row.values, key) || Object.hasOwn(this.row.refs, key);
  }

  toString(): string {
    return this.row.display;
  }

  repr(): string {
    return `<${this.scope.shape(this.row.model).className}: ${this.row.display}>`;
  }
}

/**
 * Django's manager and queryset: `all()`, `filter(...)`, `get(...)`, `count()`, `first()`, `exists()`, iteration.
 * `origin` is that of the object whose list it is, if it was reached from the context.
 */
export class QuerySetHost implements TemplateHost {
  constructor(
    private readonly scope: HostScope,
    private readonly query: ObjectQuery,
    private readonly origin?: Origin,
  ) {}

  private get className(): string {
    return this.scope.shape(this.query.model).className;
  }

  private narrowed(args: unknown[]): QuerySetHost {
    const { positional, keywords } = splitArguments(args);
    if (positional.length) throw new PyError('TypeError', 'filter() takes keyword arguments only');
    const params = { ...this.query.params };
    for (const [name, values] of Object.entries(filterParams(keywords))) params[name] = [...(params[name] ?? []), ...values];
    return new QuerySetHost(this.scope, { ...this.query, params }, this.origin);
  }

  private rows(offset: number, limit: number): TemplateRow[] {
    return this.scope.bridge.callFrom(this.origin, 'list', this.query, offset, limit);
  }

  [HOST](key: string): unknown {
    switch (key) {
      case 'all':
        return () => this;
      case 'filter':
        return (...args: unknown[]) => this.narrowed(args);
      case 'get':
        return (...args: unknown[]) => {
          const rows = this.narrowed(args).rows(0, 2);
          if (rows.length === 0) throw new PyError('RuntimeError', `${this.className} matching query does not exist.`);
          if (rows.length > 1) throw new PyError('RuntimeError', `get() returned more than one ${this.className}.`);
          return this.scope.host(rows[0]);
        };
      case 'count':
        return () => this.length();
      case 'exists':
        return () => this.rows(0, 1).length > 0;
      case 'first':
        return () => {
          const [row] = this.rows(0, 1);
          return row ? this.scope.host(row) : undefined;
        };
      default:
        return undefined;
    }
  }

  length(): number {
    return this.scope.bridge.callFrom(this.origin, 'count', this.query);
  }

  *[Symbol.iterator](): Iterator<ObjectHost> {
    for (let offset = 0; ; offset += CHUNK) {
      const rows = this.rows(offset, CHUNK);
      for (const row of rows) yield this.scope.host(row);
      if (rows.length < CHUNK) return;
    }
  }

  toString(): string {
    const rows = this.rows(0, SHOWN + 1);
    const shown = rows.slice(0, SHOWN).map((r) => this.scope.host(r).repr());
    if (rows.length > SHOWN) shown.push('...(remaining elements truncated)...');
    return `<QuerySet [${shown.join(', ')}]>`;
  }
}

/** A model class (`dcim.Site`): its `objects` manager. */
export class ModelHost implements TemplateHost {
  constructor(
    private readonly scope: HostScope,
    private readonly model: string,
  ) {}

  [HOST](key: string): unknown {
    return key === 'objects' ? new QuerySetHost(this.scope, { model: this.model, params: {} }) : undefined;
  }

  toString(): string {
    const { app, className } = this.scope.shape(this.model);
    return `<class '${app}.${className}'>`;
  }
}
