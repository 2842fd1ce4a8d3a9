import type { Knex } from '@mikro-orm/knex';
import type { Settings } from '../config/settings.js';
import { HttpError } from '../base/errors.js';
import { FilterError, ParamError } from '../filters/errors.js';
import type { Logger } from '../base/log.js';
import type { FilterNode } from '../filters/tree.js';
import { offeredLists } from '../model/offered-lists.js';
import type { Field } from '../model/field.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { Memo, ValidationError, type Json, type JsonObject, type RenderContext, type Row } from '../base/types.js';
import { orderingWithin, type Relate } from '../model/walk.js';
import type { DataAccess, ListQuery } from '../plugins/data.js';
import { columnsRead } from '../model/render.js';
import { ForeignKeyField } from '../model/fields/foreign-key.js';
import type { BridgeHandler, BridgeRequest, ModelShape, ObjectQuery, TemplateRow } from '@patchbay/render';
import { quoteIdentifier } from '../base/identifiers.js';

/** The most objects one bridge call returns (templates loop over querysets a chunk at a time). */
const MOST = 1000;

/** What the main thread reads templates' data with. */
export interface TemplateServices {
  knex: Knex;
  registry: ModelRegistry;
  settings: Settings;
  log: Logger;
}

/** A list a template can follow from an object: the model it lists and how its rows relate to the object. */
interface Follow {
  model: Model;
  relate: Relate;
}

/** Per registry: every model's lists (many-to-many fields, tags, reverse relations), by name. */
const followsByRegistry = new WeakMap<ModelRegistry, Map<string, Map<string, Follow>>>();

function followsOf(model: Model, registry: ModelRegistry): Map<string, Follow> {
  let all = followsByRegistry.get(registry);
  if (!all) {
    all = new Map();
    const models = registry.all().filter((m) => m.served);
    for (const [target, lists] of offeredLists(models, registry)) {
      all.set(target, new Map(lists.map(({ source, link }) => [link.name, { model: source, relate: link.relate }])));
    }
    for (const m of models) {
      for (const field of registry.outputFields(m, 'full')) {
        const walk = field.walk(field.name, registry);
        const target = walk?.many && walk.relate && walk.targets.length === 1 ? registry.find(walk.targets[0]) : undefined;
        if (!target || !walk?.relate) continue;
        const lists = all.get(m.key) ?? new Map<string, Follow>();
        lists.set(field.name, { model: target, relate: walk.relate });
        all.set(m.key, lists);
      }
    }
    followsByRegistry.set(registry, all);
  }
  return all.get(model.key) ?? new Map();
}

/** A model's fields as templates see them, each with its columns; its display field; every key its rows may hold. */
interface TemplateFields {
  fields: { field: Field; columns: string[] }[];
  display?: Field;
  keys: string[];
}

/** Per registry, by model: fixed once every plugin has registered its fields, so worked out once, not per read. */
const templateFieldsByRegistry = new WeakMap<ModelRegistry, Map<string, TemplateFields>>();

function templateFieldsOf(model: Model, registry: ModelRegistry): TemplateFields {
  let all = templateFieldsByRegistry.get(registry);
  if (!all) templateFieldsByRegistry.set(registry, (all = new Map()));
  let known = all.get(model.key);
  if (!known) {
    const output = registry.outputFields(model, 'full');
    const fields = output.filter((f) => !f.secret).map((field) => ({ field, columns: field.columns().map((c) => c.name) }));
    const keys = new Set(['id', ...fields.flatMap(({ field, columns }) => [field.name, ...columns])]);
    all.set(model.key, (known = { fields, display: output.find((f) => f.name === 'display'), keys: [...keys] }));
  }
  return known;
}

/**
 * What a template is told of a failed read: a refused filter or permission says why; anything else (a database error,
 * which could quote SQL) is logged and reported in general terms.
 */
function publicMessage(err: unknown, log: Logger): string {
  if (err instanceof HttpError) return typeof err.body.detail === 'string' ? err.body.detail : err.message;
  if (err instanceof ValidationError || err instanceof ParamError || err instanceof FilterError || err instanceof TemplateReadError) return err.message;
  log.error(`template read failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return 'The data could not be read.';
}

/** A read a template asked for that cannot be made (an unknown model or list). */
class TemplateReadError extends Error {}

const jsonOf = (value: unknown): Json => (value instanceof Date ? value.toISOString() : ((value ?? null) as Json));

/**
 * Answers a render's bridge calls: objects and counts read as `access` reads them (only what its user may view;
 * a model they may not view reads as empty), models by app, other templates by name. `known` holds rows the caller
 * already read through `access`, by `model:id`: a `get` of one of them answers without reading it again. `wanted`,
 * the keys the template's renders read of each model's objects, makes its rows partial: only those keys (building
 * and carrying every field of thirty interfaces is most of a configuration's cost), the rest read when asked.
 */
export function templateSource(
  services: TemplateServices, access: DataAccess, templates: (name: string) => Promise<string | undefined>, known: ReadonlyMap<string, Row> = new Map(),
  wanted?: ReadonlyMap<string, ReadonlySet<string>>,
): BridgeHandler {
  const { registry } = services;
  const renderContext: RenderContext = { db: services.knex, registry, settings: services.settings, baseUrl: '', memo: new Memo() };

  const model = (key: unknown): Model => {
    const found = typeof key === 'string' ? registry.find(key) : undefined;
    if (!found?.served) throw new TemplateReadError(`Unknown model ${String(key)}.`);
    return found;
  };

  /** The fields whose keys `wanted` names of a model (every field when it names none, or for a `full` row). */
  const givenOf = (m: Model, full: boolean) => {
    const keys = full ? undefined : wanted?.get(m.key);
    const { fields } = templateFieldsOf(m, registry);
    return { keys, given: keys ? fields.filter(({ field, columns }) => keys.has(field.name) || columns.some((c) => keys.has(c))) : fields };
  };

  /** The columns rows of `m` are read with: those its wanted keys and what it prints as read (all, without). */
  const columnsOf = (m: Model): string[] | undefined => {
    const { keys, given } = givenOf(m, false);
    const { display } = templateFieldsOf(m, registry);
    return keys && columnsRead([...given.map((g) => g.field), ...(display ? [display] : [])]);
  };

  /**
   * The rows as templates see them: values by column, references by relation, and what each prints as; only the
   * keys `wanted` names of the model, unless `full`.
   */
  const templateRows = async (m: Model, rows: Row[], full = false): Promise<TemplateRow[]> => {
    if (!rows.length) return [];
    // What each prints as: a model's display rule over the row itself, unless it loads more (then as the API renders it).
    const displays = m.decl.displayLoader
      ? (await access.render(m, rows, { selection: { only: new Set(['id', 'display']) } })).map((r) => r.display)
      : rows.map((row) => m.displayOf(row));
    const { keys, given } = givenOf(m, full);
    const fields = given.map((g) => g.field);
    // Each field's column names, once per call rather than per row.
    const columns = given.map((g) => g.columns);
    const single = await Promise.all(
      fields.map(async (field) => {
        const walk = field.walk(field.name, registry);
        return walk && !walk.many && walk.refs ? { name: field.name, refs: await walk.refs(rows, renderContext) } : undefined;
      }),
    );
    return rows.map((row, n) => {
      const values: JsonObject = { id: row.id as number };
      for (let i = 0; i < fields.length; i++) {
        for (const column of columns[i]) values[column] = jsonOf(row[column]);
        const plain = fields[i].plainValue(row);
        if (plain !== undefined) values[fields[i].name] = plain;
      }
      const refs: TemplateRow['refs'] = {};
      for (const link of single) {
        if (!link) continue;
        const ref = link.refs(row);
        refs[link.name] = Array.isArray(ref) ? (ref[0] ?? null) : ref;
      }
      const templateRow: TemplateRow = { model: m.key, id: row.id as number, display: String(displays[n] ?? ''), values, refs };
      if (keys) templateRow.partial = true;
      return templateRow;
    });
  };

  /**
   * The filter tree of a query: the objects related through a list, if it follows one; and the list's ordering, less
   * the field holding the object's id (the same for every row of one object's list: no join to order by it).
   */
  const relation = (query: ObjectQuery): { where?: FilterNode; ordering?: string[] } => {
    if (!query.via) return {};
    const follow = followsOf(model(query.via.model), registry).get(query.via.list);
    if (!follow) throw new TemplateReadError(`No list ${query.via.list} on ${query.via.model}.`);
    const id = Number(query.via.id);
    if (!Number.isSafeInteger(id)) throw new TemplateReadError('Invalid id.');
    const via = follow.relate.via;
    return {
      // The id bound when it can be (one statement text for every object's list, prepared once), else inlined.
      where: { op: 'sql', condition: (qb, alias) => (via ? via.among(qb, alias, [id]) : follow.relate(qb, alias, String(id))) },
      ordering: orderingWithin(follow.model, follow.relate),
    };
  };

  const visible = (m: Model) => access.can(m, 'view');

  /**
   * Reads asked for in one turn of the event loop (a render's read-ahead asks for all it can at once) are made
   * together: `listEach` reads those whose columns are known in one statement. Should that fail (a read's filter is
   * refused), each is made on its own, to fail or answer as it would alone (which `Batcher`, failing a round together
   * and keying loads by their JSON, where these hold conditions as functions, would not do).
   */
  const pending: { model: Model; query: ListQuery; resolve(rows: Row[]): void; reject(err: unknown): void }[] = [];
  const flush = async () => {
    const round = pending.splice(0);
    const lists = round.length > 1 ? await access.listEach(round).catch(() => undefined) : undefined;
    round.forEach(({ model: m, query, resolve, reject }, k) => (lists ? resolve(lists[k]) : access.list(m, query).then(resolve, reject)));
  };
  const read = (m: Model, query: ListQuery) => new Promise<Row[]>((resolve, reject) => {
    if (!pending.length) setImmediate(() => void flush());
    pending.push({ model: m, query, resolve, reject });
  });

  const calls = {
    async list(query: ObjectQuery, offset: number, limit: number): Promise<TemplateRow[]> {
      const m = model(query.model);
      if (!(await visible(m))) return [];
      const rows = await read(m, { params: query.params, ...relation(query), offset: Math.max(0, offset), limit: Math.min(Math.max(0, limit), MOST), columns: columnsOf(m) });
      return templateRows(m, rows);
    },
    async count(query: ObjectQuery): Promise<number> {
      const m = model(query.model);
      return (await visible(m)) ? access.count(m, { params: query.params, where: relation(query).where }) : 0;
    },
    async get(key: string, id: number, full?: boolean): Promise<TemplateRow | null> {
      const m = model(key);
      const row = (await visible(m)) ? (known.get(`${m.key}:${id}`) ?? (await read(m, { ids: [id], ordering: [], limit: 1, columns: full ? undefined : columnsOf(m) }))[0]) : undefined;
      return row ? (await templateRows(m, [row], full === true))[0] : null;
    },
    shape(key: string): ModelShape {
      const m = model(key);
      return { className: m.className, app: m.app, lists: Object.fromEntries([...followsOf(m, registry)].map(([name, f]) => [name, f.model.key])), keys: templateFieldsOf(m, registry).keys };
    },
    models(): Record<string, Record<string, string>> {
      const apps: Record<string, Record<string, string>> = {};
      for (const m of registry.all().filter((x) => x.served)) (apps[m.app] ??= {})[m.className] = m.key;
      return apps;
    },
    template: (name: string) => templates(String(name)),
  };

  /**
   * The object `refs` reach from `root` through foreign keys, read as `get` reads it, found from the root's id in SQL:
   * the read-ahead asks for it beside the objects on the way (each read as its own `get`), which say whether a render
   * reaches it. Undefined when a reference is not a foreign key.
   */
  const follow = async (root: { model: string; id: number }, refs: string[]): Promise<TemplateRow | null | undefined> => {
    let at = model(root.model);
    let target = '?';
    for (const ref of refs) {
      const fk = registry.fieldOf(at, ref);
      if (!(fk instanceof ForeignKeyField)) return undefined;
      target = `(select ${quoteIdentifier(fk.column)} from ${quoteIdentifier(at.table)} where id = ${target})`;
      at = model(fk.target);
    }
    if (!(await visible(at))) return null;
    const condition = (qb: Knex.QueryBuilder, alias: string) => void qb.whereRaw(`??.id = ${target}`, [alias, root.id]);
    const [row] = await read(at, { where: { op: 'sql', condition }, ordering: [], limit: 1, columns: columnsOf(at) });
    return row ? (await templateRows(at, [row]))[0] : null;
  };

  const answer = async ({ method, args }: BridgeRequest) => {
    const call = calls[method] as (...a: unknown[]) => unknown;
    if (typeof call !== 'function') throw new Error(`Unknown call ${String(method)}.`);
    try {
      return await call(...args);
    } catch (err) {
      throw new Error(publicMessage(err, services.log));
    }
  };
  return Object.assign(answer, { follow });
}
