import { selectComputed, type Field, type Reference } from './field.js';
import type { Model } from './model.js';
import { ObjectTypes } from './object-types.js';
import { offeredLists, type OfferedList } from './offered-lists.js';
import { applyOrdering } from './ordering.js';
import { columnsRead, readKeys, renderRows } from './render.js';
import type { JsonObject, RenderContext, RenderMode, Row } from '../base/types.js';
import { appendTo } from '../base/collections.js';
import { storedRow } from './stored.js';
import { whereIdIn } from '../base/typed-arrays.js';

/** A field of another model that refers to a model: what deleting its objects must look at. */
export type Dependent = { model: Model; field: Field; reference: Reference };

/** Where a model's objects are served. */
interface ModelMount {
  /** e.g. `/api/tenancy/`. */
  api: string;
  /** e.g. `/tenancy/`: where `display_url` points. */
  ui: string;
}

/** Fields one plugin adds to another plugin's model, by name (`tags`, `custom_fields`). */
export type Contributor = (model: Model) => Record<string, Field>;

/** Objects a field nests: their ids, and the keys of its form (absent: the model's nested form). */
interface NestedForm {
  ids: number[];
  keys?: string[];
}

/** The models of one server: lookup by key, URLs, derived fields and relations between models. */
export class ModelRegistry {
  private readonly models = new Map<string, Model>();
  private readonly mounts = new Map<string, ModelMount>();
  /** Read-only fields the models' own fields derive (counts on a target, `_depth`), appended after `last_updated`. */
  private readonly derived = new Map<string, Field[]>();
  /** Fields plugins add to other plugins' models (tags, custom fields), placed before `created`. */
  private readonly contributed = new Map<string, Field[]>();
  private readonly contributors: { owner: string; fields: Contributor }[] = [];
  private readonly contributorOfField = new Map<Field, string>();
  readonly objectTypes = new ObjectTypes();
  private offered?: Map<string, OfferedList[]>;
  /** `outputFields` by model and mode, once the registry is final. */
  private readonly outputs: Record<RenderMode, Map<Model, readonly Field[]>> = { full: new Map(), brief: new Map(), nested: new Map() };

  /** @internal The kernel registers each plugin's models as it loads them. */
  register(model: Model, mount: ModelMount): void {
    if (this.models.has(model.key)) throw new Error(`Model ${model.key} is registered twice`);
    this.models.set(model.key, model);
    this.mounts.set(model.key, mount);
    this.forgetOutputs();
  }

  /** `fields(model)` gives the fields plugin `owner` adds to `model` (new objects per model); applied by `finalize`. */
  contribute(owner: string, fields: Contributor): void {
    this.contributors.push({ owner, fields });
  }

  /** Adds the fields plugins contribute, links every field to what it refers to and checks brief lists. */
  finalize(): void {
    for (const model of this.models.values()) {
      const added: Field[] = [];
      for (const { owner, fields } of this.contributors) {
        for (const [name, field] of Object.entries(fields(model))) {
          if (this.fieldOf(model, name) || added.some((f) => f.name === name)) throw new Error(`${model.key}: field "${name}" is declared twice`);
          field.attach(model, name);
          added.push(field);
          this.contributorOfField.set(field, owner);
        }
      }
      if (added.length) this.contributed.set(model.key, added);
    }
    for (const model of this.models.values()) {
      for (const field of [...model.fields, ...this.contributedFields(model)]) {
        for (const { model: owner, name, field: extra, brief } of field.link(this)) {
          if (this.fieldOf(owner, name)) throw new Error(`${owner.key}: field "${name}" is declared twice`);
          extra.attach(owner, name);
          if (brief) owner.addBrief(name);
          appendTo(this.derived, owner.key, extra);
        }
      }
    }
    // A tree's `_depth` comes last, after the counts other models add.
    for (const fields of this.derived.values()) fields.sort((a, b) => Number(a.name === '_depth') - Number(b.name === '_depth'));
    for (const model of this.models.values()) {
      for (const name of model.brief) {
        if (!this.briefField(model, name)) throw new Error(`${model.key}: brief field "${name}" is not a field of the model, nor a key of one`);
      }
      for (const field of [...model.fields, ...this.contributedFields(model)]) field.verify(this);
      for (const name of [model.decl.parent ?? []].flat()) {
        if (!model.field(name)) throw new Error(`${model.key}: parent "${name}" is not a field of the model`);
      }
    }
    this.forgetOutputs();
  }

  /** Output fields listed while models were still being registered or finalized are out of date. */
  private forgetOutputs(): void {
    for (const lists of Object.values(this.outputs)) lists.clear();
  }

  get(key: string): Model {
    const model = this.models.get(key);
    if (!model) throw new Error(`Unknown model ${key}`);
    return model;
  }

  find(key: string): Model | undefined {
    return this.models.get(key);
  }

  all(): Model[] {
    return [...this.models.values()];
  }

  apiPath(model: Model): string {
    return `${this.mounts.get(model.key)!.api}${model.path}/`;
  }

  uiPath(model: Model): string {
    return `${this.mounts.get(model.key)!.ui}${model.path}/`;
  }

  /** A declared field, or one contributed by a plugin or derived by another model's field. */
  fieldOf(model: Model, name: string): Field | undefined {
    // No named closure: the loader keeps function names, at a cost per closure made, and this runs per object.
    return model.field(name) ?? this.contributed.get(model.key)?.find((f) => f.name === name) ?? this.derived.get(model.key)?.find((f) => f.name === name);
  }

  /** The list another model's relation offers on `model` under `name` (`terminations` on a circuit), if one does. */
  offeredList(model: Model, name: string): OfferedList | undefined {
    this.offered ??= offeredLists(this.all(), this);
    return this.offered.get(model.key)?.find((l) => l.link.name === name);
  }

  /** The fields plugins add to `model` (tags, custom fields, a device's primary IPs from ipam). */
  contributedFields(model: Model): readonly Field[] {
    return this.contributed.get(model.key) ?? [];
  }

  /** The plugin that added `field` to another plugin's model, if one did. */
  contributorOf(field: Field): string | undefined {
    return this.contributorOfField.get(field);
  }

  /** The read-only fields other models' fields add to `model` (counts, `_depth`). */
  derivedFields(model: Model): readonly Field[] {
    return this.derived.get(model.key) ?? [];
  }

  /** Every field a representation of `model` carries, in output order. */
  outputFields(model: Model, mode: RenderMode): readonly Field[] {
    // Every write and render asks for them, per object: each list is made once (again after `register` and `finalize`).
    const known = this.outputs[mode].get(model);
    if (known) return known;
    const fields = mode === 'full' ? this.fullFields(model) : [...new Set(model.brief.map((name) => this.briefField(model, name)!))];
    this.outputs[mode].set(model, fields);
    return fields;
  }

  private fullFields(model: Model): Field[] {
    const tail = model.fields.length - 2; // created, last_updated
    const contributed = this.contributed.get(model.key) ?? [];
    const all = [...model.fields.slice(0, tail), ...contributed, ...model.fields.slice(tail), ...(this.derived.get(model.key) ?? [])];
    return all.filter((f) => !f.nestedOnly);
  }

  /** The field a brief name reads: a field of that name, or the field rendering that key (`interface_type`). */
  private briefField(model: Model, name: string): Field | undefined {
    return this.fieldOf(model, name) ?? this.outputFields(model, 'full').find((f) => readKeys(f, this).includes(name));
  }

  /**
   * Nested representations of `ids` by id, in no set order: those the write stored render from the rows it holds
   * (read back, they would be the same), the others load as `loadNested` loads them.
   */
  async nestedById(model: Model, ids: number[], ctx: RenderContext, keys?: string[]): Promise<Map<number, JsonObject>> {
    if (ctx.memo.remembersNothing) return this.loadNested(model, ids, ctx, keys);
    const unique = [...new Set(ids)];
    const held = unique.map((id) => ctx.memo.recall<Row>(storedRow(model.key, id))).filter((r): r is Row => r !== undefined);
    if (!held.length) return this.loadNested(model, unique, ctx, keys);
    const known = new Set(held.map((r) => r.id as number));
    const [loaded, rendered] = await Promise.all([this.loadNested(model, unique.filter((id) => !known.has(id)), ctx, keys), this.nestedOf(model, held, ctx, keys)]);
    for (const [id, object] of rendered) loaded.set(id, object);
    return loaded;
  }

  /** Nested representations of `rows` the caller holds (all their columns), in their order. */
  async nestedOf(model: Model, rows: Row[], ctx: RenderContext, keys?: string[]): Promise<Map<number, JsonObject>> {
    const rendered = await renderRows(model, rows, ctx, 'nested', undefined, this.nestedFields(model, keys));
    return new Map(rendered.map((object) => [object.id as number, object]));
  }

  /**
   * Nested representations of `ids`, in the model's default ordering: id, url, display and the brief fields, or
   * exactly the fields `keys` names where NetBox nests another form (tree parents, interface LAGs).
   */
  async loadNested(model: Model, ids: number[], ctx: RenderContext, keys?: string[]): Promise<Map<number, JsonObject>> {
    const form: NestedForm = { ids: [...new Set(ids)], keys };
    if (form.ids.length === 0) return new Map();
    if (!ctx.loads) return (await this.renderNested(model, [form], ctx))[0];
    // Renders side by side load the objects of one model in one query, whatever form each nests them in.
    return ctx.loads.load(`nested:${model.key}`, form, (forms: NestedForm[]) => this.renderNested(model, forms, ctx));
  }

  /**
   * The objects each form asks for, in the model's order (lists of a many-to-many relation keep it) and in its form:
   * one query for them all, of the columns they all need.
   */
  private async renderNested(model: Model, forms: NestedForm[], ctx: RenderContext): Promise<Map<number, JsonObject>[]> {
    const fieldSets = forms.map(({ keys }) => this.nestedFields(model, keys));
    const needed = fieldSets.map(columnsRead);
    const columns = needed.every((c) => c !== undefined) ? [...new Set(needed.flat())] : undefined;
    const qb = ctx.db(`${model.table} as t`).select(columns ? columns.map((c) => `t.${c}`) : 't.*');
    const ids = [...new Set(forms.flatMap((f) => f.ids))];
    whereIdIn(qb, 't.id', ids);
    selectComputed(qb, ctx.db, new Set(fieldSets.flat()), ids);
    applyOrdering(qb, model, model.ordering, this);
    const rows = (await qb) as Row[];
    return Promise.all(
      forms.map(async ({ ids }, n) => {
        const wanted = new Set(ids);
        const rendered = await renderRows(model, rows.filter((r) => wanted.has(r.id as number)), ctx, 'nested', undefined, fieldSets[n]);
        return new Map(rendered.map((obj) => [obj.id as number, obj]));
      }),
    );
  }

  /** The fields of a nested form: those `keys` names, or the model's nested fields. */
  private nestedFields(model: Model, keys?: string[]): readonly Field[] {
    return keys?.map((k) => this.fieldOf(model, k)!) ?? this.outputFields(model, 'nested');
  }

  /** Fields of every model that refer to objects of `model`, for deletes. */
  dependents(model: Model): Dependent[] {
    const found: Dependent[] = [];
    for (const m of this.models.values()) {
      for (const field of m.fields) {
        const reference = field.references(model, this);
        if (reference) found.push({ model: m, field, reference });
      }
    }
    return found;
  }
}
