import {
  ParamError, ValidationError, defineModel, f, textFilter,
  type Field, type Model, type QueryFilter, type ModelHooks, type ModelValidator, type UniqueConstraint,
} from 'patchbay';
import { cabled } from '../../cabling/cabled.js';
import type { CableRole } from '../../cabling/roles.js';
import { DeviceStatus } from '../../choices/index.js';
import { labelled } from '../../rules/labelled.js';

export interface ComponentSpec {
  path: string;
  verboseName: string;
  /** The count devices show (`interface_count`). */
  countAs: string;
  /** Every key of the nested device, where more than its brief form (interfaces: its `display_name`, spec §2.3). */
  deviceKeys?: string[];
  /** The component's own fields, between `label` and `description`. */
  fields?: Record<string, Field>;
  /** Fields after `description`. */
  tail?: Record<string, Field>;
  /** Cables attach to it, in this part of cable paths: it gains the cabled fields after `tail`. */
  cable?: CableRole;
  /** It may belong to a module of its device (all but device bays and inventory items). Default true. */
  modular?: boolean;
  unique?: UniqueConstraint[];
  brief?: string[];
  ordering?: string[];
  /** What `?q=` compares, when more than the name, label and description. */
  search?: string[];
  /** Filters along relations beside those every component has. */
  relatedFilters?: Record<string, string>;
  /** Query-string filters of its own. */
  filters?: Record<string, QueryFilter>;
  /** Features beside tags, custom fields, the change log and the journal. */
  features?: string[];
  validate?: ModelValidator;
  hooks?: ModelHooks;
  /** NetBox lets inventory items move between devices; other components stay on theirs. */
  movable?: boolean;
}

/** A device's status, as component lists filter on it. */
const deviceStatus = textFilter(['device', 'status'], (v) => {
  if (!DeviceStatus.has(v)) throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
});

/**
 * A component of a device (NetBox's ComponentModel): its device, module, name, label and description, the
 * filters along the device every component list offers, and the rules they share, plus its own.
 */
export function defineComponent(key: string, spec: ComponentSpec): Model {
  const modular = spec.modular ?? true;
  // Devices and modules list them as NetBox names the lists (`interfaces`, `consoleports`).
  const related = `${key.split('.')[1]}s`;
  return defineModel(key, {
    path: spec.path,
    verboseName: spec.verboseName,
    fields: {
      device: f.fk('dcim.device', { onDelete: 'cascade', countAs: spec.countAs, nested: spec.deviceKeys, related }),
      ...(modular ? { module: f.fk('dcim.module', { nullable: true, onDelete: 'cascade', related }) } : {}),
      name: f.string({ max: 64, natural: true }),
      label: f.string({ max: 64, blank: true }),
      ...spec.fields,
      description: f.string({ max: 200, blank: true }),
      ...spec.tail,
      ...(spec.cable ? cabled(spec.cable) : {}),
    },
    unique: spec.unique ?? [{ fields: ['device', 'name'] }],
    brief: spec.brief ?? ['device', 'name', 'description', ...(spec.cable ? ['cable', '_occupied'] : [])],
    display: labelled,
    displayUses: ['name', 'label'],
    ordering: spec.ordering ?? ['device', 'name'],
    search: spec.search ?? ['name', 'label', 'description'],
    relatedFilters: {
      region: 'device__site__region', site_group: 'device__site__group', site: 'device__site', location: 'device__location',
      rack: 'device__rack', device_type: 'device__device_type.model', device_role: 'device__role', virtual_chassis: 'device__virtual_chassis',
      tenant: 'device__tenant', ...spec.relatedFilters,
    },
    filters: { device_status: deviceStatus, ...spec.filters },
    parent: 'device',
    hooks: spec.hooks,
    features: ['tags', 'customFields', 'changelog', 'journal', ...(spec.cable ? ['cabled'] : []), ...(spec.features ?? [])],
    async validate(row, ctx) {
      if (!spec.movable && ctx.instance && ctx.instance.device_id !== row.device_id) {
        throw ValidationError.of('device', 'Components cannot be moved to a different device.');
      }
      if (modular && row.module_id) {
        const module = await ctx.stored(ctx.registry.get('dcim.module'), row.module_id as number);
        if (module && module.device_id !== row.device_id) throw ValidationError.of('module', 'The module must belong to the same device.');
      }
      await spec.validate?.(row, ctx);
    },
  });
}
