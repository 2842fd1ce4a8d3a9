import { Field, type Column, type RenderContext } from '../../../kernel/index.js';

/**
 * A field contributed to other plugins' models whose values live in one extras table for all models,
 * keyed by object type and object id: it adds no column to the model's own table.
 */
export abstract class SideTableField extends Field {
  constructor(name: string, label: string) {
    super({ required: false, label });
    this.name = name;
  }

  columns(): Column[] {
    return [];
  }

  override orderColumn(): undefined {
    return undefined;
  }

  /** The object type id of the model the field was contributed to. */
  protected typeId(registry: RenderContext['registry']): number {
    return registry.objectTypes.idOf(this.model.key)!;
  }

  protected metadataType(): string {
    return 'field';
  }
}
