import { orderedFilter, type QueryFilter } from '../../filters/builders.js';
import { FilterError } from '../../filters/errors.js';
import { EQUALITY_LOOKUPS, ORDER_LOOKUPS, type Lookups } from '../../filters/lookups.js';
import { parseWholeNumber } from '../../filters/values.js';
import type { ValueSchema } from '../description.js';
import { Field, plainRenderer, type Column } from '../field.js';
import type { Model } from '../model.js';
import type { ModelRegistry } from '../registry.js';
import type { FieldRenderer, RenderContext, Row } from '../../base/types.js';
import { wholeNumber } from '../../base/values.js';
import { TimestampField } from './scalar.js';
import { ReadOnlyField } from './read-only.js';

/** The primary key: a whole number, filterable and orderable like one. */
export class IdField extends ReadOnlyField {
  constructor() {
    super({ label: 'ID' });
  }

  override columns(): Column[] {
    return [{ name: 'id', type: 'serial', nullable: false }];
  }

  prepare(): FieldRenderer {
    return plainRenderer('id', (row) => row.id as number);
  }

  override jsonSql(key: string, alias: string): string | undefined {
    return key === 'id' ? `${alias}."id"` : undefined;
  }

  /** The change record names the object already. */
  override snapshot(): undefined {
    return undefined;
  }

  protected schema(): ValueSchema {
    return { type: 'integer', scalar: 'ID' };
  }

  override lookups(): Lookups {
    return { ...EQUALITY_LOOKUPS, ...ORDER_LOOKUPS };
  }

  override filterValue(value: unknown): number {
    const id = wholeNumber(value);
    if (id === undefined) throw new FilterError(`Expected a whole number, got ${JSON.stringify(value)}.`, 'value');
    return id;
  }

  override filters(): Record<string, QueryFilter> {
    return { id: orderedFilter(['id'], parseWholeNumber) };
  }
}

/** `url` (the API detail) or `display_url` (the object's page): absolute, from the request's host. */
export class LinkField extends ReadOnlyField {
  constructor(private readonly path: (registry: ModelRegistry, model: Model) => string) {
    super();
  }

  prepare(_rows: Row[], ctx: RenderContext): FieldRenderer {
    const base = ctx.baseUrl + this.path(ctx.registry, this.model);
    return plainRenderer(this.name, (row) => `${base}${row.id}/`);
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'uri' };
  }
}

/** `display`: the object as people read it, by the model's display rule; also `display_name`, where older clients read it. */
export class DisplayField extends ReadOnlyField {
  /** What the model's display rule reads: its `displayUses`, else the name; unknown (the whole row) for a custom rule. */
  override reads(): string[] | undefined {
    const { decl } = this.model;
    if (decl.displayUses) return decl.displayUses.flatMap((name) => this.model.field(name)!.columns().map((c) => c.name));
    if (decl.display || decl.displayLoader) return undefined;
    return this.model.field('name') ? ['name'] : [];
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const model = this.model;
    const loader = model.decl.displayLoader;
    if (!loader) return plainRenderer(this.name, (row) => model.displayOf(row));
    const displays = await loader(rows, ctx);
    return plainRenderer(this.name, (row) => displays.get(row.id as number) ?? String(row.id));
  }

  protected schema(): ValueSchema {
    return { type: 'string' };
  }
}

/** The fields `defineModel` adds around the declared ones, by name. */
export function standardFields(): { head: Record<string, Field>; tail: Record<string, Field> } {
  return {
    head: {
      id: new IdField(),
      url: new LinkField((registry, model) => registry.apiPath(model)),
      display_url: new LinkField((registry, model) => registry.uiPath(model)),
      display: new DisplayField(),
    },
    tail: { created: new TimestampField(), last_updated: new TimestampField() },
  };
}
