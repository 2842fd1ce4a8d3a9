import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';
import { naturalKey, relationFilter, type QueryFilter } from '../filters/builders.js';
import { searchFilter, searchTerms } from './search.js';

export type { FilterContext, QueryFilter } from '../filters/builders.js';

/** Filters plugins add to other plugins' models (tags, custom fields...), without the kernel knowing them. */
export interface FilterExtension {
  appliesTo(model: Model): boolean;
  filters(model: Model): Record<string, QueryFilter>;
  /** Filters whose names are only known at request time (`cf_<name>` of custom fields defined through the API). */
  resolve?(model: Model, name: string): QueryFilter | undefined;
}

/**
 * Every query-string filter of every model, derived once from the declarations (each field kind offers its
 * own) and from the plugins' extensions.
 */
export class FilterSets {
  private readonly sets = new Map<string, Map<string, QueryFilter>>();
  private readonly extensions: FilterExtension[] = [];

  constructor(private readonly registry: ModelRegistry) {}

  extend(extension: FilterExtension): void {
    this.extensions.push(extension);
    this.sets.clear();
  }

  /** The filter called `name` on `model`, declared or resolved by an extension. */
  lookup(model: Model, name: string): QueryFilter | undefined {
    const found = this.of(model).get(name);
    if (found) return found;
    for (const ext of this.extensions) {
      const resolved = ext.appliesTo(model) ? ext.resolve?.(model, name) : undefined;
      if (resolved) return resolved;
    }
    return undefined;
  }

  /** The model a path of relations ends on, or a start-up error naming the model and the path. */
  private relationTarget(model: Model, steps: string[]): Model {
    let current = model;
    for (const step of steps) {
      const relation = current.field(step)?.describe(this.registry).find((p) => p.relation)?.relation;
      if (!relation) throw new Error(`${model.key}: related filter path ${steps.join('__')} does not follow relations (at ${step})`);
      current = this.registry.get(relation);
    }
    return current;
  }

  of(model: Model): Map<string, QueryFilter> {
    let set = this.sets.get(model.key);
    if (!set) {
      set = new Map();
      for (const field of [...model.fields, ...this.registry.contributedFields(model), ...this.registry.derivedFields(model)]) {
        for (const [name, filter] of Object.entries(field.filters(this.registry))) set.set(name, filter);
      }
      // `q` compares what the model's search declaration names, each with its lookup.
      const terms = searchTerms(model, this.registry);
      if (terms.length) set.set('q', searchFilter(terms));
      for (const [name, spec] of Object.entries(model.decl.relatedFilters ?? {})) {
        const [path, attribute] = spec.split('.');
        const steps = path.split('__');
        const target = this.relationTarget(model, steps);
        set.set(`${name}_id`, relationFilter(steps, target, 'id', target.isTree));
        const key = attribute ?? naturalKey(target);
        if (key && !target.field(key)) throw new Error(`${model.key}: related filter ${name} names ${key}, which is not a field of ${target.key}`);
        if (key) set.set(name, relationFilter(steps, target, key, target.isTree));
      }
      for (const [name, filter] of Object.entries(model.decl.filters ?? {})) set.set(name, filter);
      for (const ext of this.extensions) if (ext.appliesTo(model)) for (const [name, filter] of Object.entries(ext.filters(model))) set.set(name, filter);
      this.sets.set(model.key, set);
    }
    return set;
  }
}
