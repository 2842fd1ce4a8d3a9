import {
  ValidationError, defineModel, f,
  type Field, type Model, type ModelValidator, type Row, type UniqueConstraint,
} from 'patchbay';
import { labelled } from '../../rules/labelled.js';

export interface TemplateSpec {
  path: string;
  verboseName: string;
  /** The count device types show (`interface_template_count`). */
  countAs: string;
  /** The template's own fields, between `label` and `description`. */
  fields?: Record<string, Field>;
  /** Module types hold it too (all but device bays and inventory items). Default true. */
  modular?: boolean;
  /** Where names are unique, when not per device type and per module type (inventory items: per parent too). */
  nameUniqueWithin?: string[];
  unique?: UniqueConstraint[];
  brief?: string[];
  ordering?: string[];
  /** What `?q=` compares, when more than the name, label and description. */
  search?: string[];
  /** Features beside the change log (`inventoryTemplateTarget`: inventory item templates may point at it). */
  features?: string[];
  validate?: ModelValidator;
}

/**
 * A component template of device types (and module types): the fields, rules and display every template shares
 * (NetBox's ComponentTemplateModel), plus its own.
 */
export function defineTemplate(key: string, spec: TemplateSpec): Model {
  const modular = spec.modular ?? true;
  // Device and module types list them as NetBox names the lists (`interfacetemplates`).
  const related = `${key.split('.')[1]}s`;
  return defineModel(key, {
    path: spec.path,
    verboseName: spec.verboseName,
    fields: {
      device_type: f.fk('dcim.devicetype', { onDelete: 'cascade', nullable: modular, countAs: spec.countAs, related }),
      ...(modular ? { module_type: f.fk('dcim.moduletype', { onDelete: 'cascade', nullable: true, related }) } : {}),
      name: f.string({ max: 64, natural: true }),
      label: f.string({ max: 64, blank: true }),
      ...spec.fields,
      description: f.string({ max: 200, blank: true }),
    },
    unique: [
      ...(spec.nameUniqueWithin ? [{ fields: [...spec.nameUniqueWithin, 'name'] }] : [{ fields: ['device_type', 'name'] }, ...(modular ? [{ fields: ['module_type', 'name'] }] : [])]),
      ...(spec.unique ?? []),
    ],
    brief: spec.brief ?? ['name', 'description'],
    display: labelled,
    displayUses: ['name', 'label'],
    ordering: spec.ordering ?? (modular ? ['device_type', 'module_type', 'name'] : ['device_type', 'name']),
    search: spec.search ?? ['name', 'description'],
    parent: modular ? ['device_type', 'module_type'] : 'device_type',
    features: ['changelog', ...(spec.features ?? [])],
    async validate(row, ctx) {
      if (ctx.instance && ctx.instance.device_type_id !== null && ctx.instance.device_type_id !== row.device_type_id) {
        throw ValidationError.of('device_type', 'Component templates cannot be moved to a different device type.');
      }
      if (modular && row.device_type_id && row.module_type_id) {
        throw ValidationError.of('__all__', 'A component template cannot be associated with both a device type and a module type.');
      }
      if (modular && !row.device_type_id && !row.module_type_id) {
        throw ValidationError.of('__all__', 'A component template must be associated with either a device type or a module type.');
      }
      await spec.validate?.(row, ctx);
    },
  });
}

/** The rule of a template referring to another template (a front port's rear port): both of one device or module type. */
export function sameOwner(row: Row, other: Row | undefined, error: (owner: 'device type' | 'module type') => ValidationError): void {
  if (!other) return;
  if (row.device_type_id && other.device_type_id !== row.device_type_id) throw error('device type');
  if (row.module_type_id && other.module_type_id !== row.module_type_id) throw error('module type');
}
