import { Field, type Column, type ModelRegistry } from 'patchbay';

/**
 * A field contributed to other plugins' models whose values live in one extras table for all models,
 * keyed by object type and object id: it adds no column to the model's own table.
 */
export abstract class SideTableField extends Field {
  constructor(label: string) {
    super({ required: false, label });
  }

  columns(): Column[] {
    return [];
  }

  /** The object type id of the model the field was contributed to. */
  protected typeId(registry: ModelRegistry): number {
    return registry.objectTypes.idOf(this.model.key)!;
  }
}
