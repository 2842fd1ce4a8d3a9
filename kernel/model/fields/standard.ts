import { Field, plainRenderer, type Column, type FieldMetadata, type FilterKind } from '../field.js';
import type { Model } from '../model.js';
import type { ModelRegistry } from '../registry.js';
import type { FieldRenderer, RenderContext, Row } from '../types.js';
import { TimestampField } from './scalar.js';

/** Fields every model has, read-only and filled by the kernel. */
abstract class ReadOnlyField extends Field {
  constructor(name: string, private readonly metaType: string, label?: string) {
    super({ readOnly: true, label });
    this.name = name;
  }

  columns(): Column[] {
    return [];
  }

  parse(): void {}

  protected metadataType(): string {
    return this.metaType;
  }
}

export class IdField extends ReadOnlyField {
  override filterKind(): FilterKind | undefined {
    return 'integer';
  }

  constructor() {
    super('id', 'integer', 'ID');
  }

  override columns(): Column[] {
    return [{ name: 'id', type: 'serial', nullable: false }];
  }

  prepare(): FieldRenderer {
    return plainRenderer('id', (row) => row.id as number);
  }
}

/** `url` (the API detail) or `display_url` (the object's page): absolute, from the request's host. */
export class LinkField extends ReadOnlyField {
  constructor(name: 'url' | 'display_url', private readonly path: (registry: ModelRegistry, model: Model) => string) {
    super(name, 'field');
  }

  prepare(_rows: Row[], ctx: RenderContext): FieldRenderer {
    const base = ctx.baseUrl + this.path(ctx.registry, this.model);
    return plainRenderer(this.name, (row) => `${base}${row.id}/`);
  }
}

export class DisplayField extends ReadOnlyField {
  constructor() {
    super('display', 'field');
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const loader = this.model.decl.displayLoader;
    if (!loader) return plainRenderer('display', (row) => this.model.displayOf(row));
    const displays = await loader(rows, ctx);
    return plainRenderer('display', (row) => displays.get(row.id as number) ?? String(row.id));
  }
}

export class CreatedField extends TimestampField {
  constructor(name: 'created' | 'last_updated') {
    super({ readOnly: true });
    this.name = name;
  }

  override metadata(registry: ModelRegistry): FieldMetadata {
    return { ...super.metadata(registry), required: false };
  }
}

/** The fields `defineModel` adds around the declared ones. */
export function standardFields(): { head: Field[]; tail: Field[] } {
  return {
    head: [
      new IdField(),
      new LinkField('url', (registry, model) => registry.apiPath(model)),
      new LinkField('display_url', (registry, model) => registry.uiPath(model)),
      new DisplayField(),
    ],
    tail: [new CreatedField('created'), new CreatedField('last_updated')],
  };
}
