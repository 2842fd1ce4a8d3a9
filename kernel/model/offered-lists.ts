import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';
import type { Relate } from './walk.js';

/** A list one model's relation offers on another (`devices` on a site). */
export interface BackLink {
  name: string;
  relate: Relate;
}

/** A list a relation of `source` offers on a model. */
export interface OfferedList {
  source: Model;
  link: BackLink;
}

/**
 * The lists relations offer on their targets (`devices` on a site, `ip_addresses` on an interface), by target
 * model, for GraphQL's nested lists and templates' related managers: from every field of every model that names its
 * `related` list. Two lists of one name on a model stop
 * start-up, naming both.
 */
export function offeredLists(models: Model[], registry: ModelRegistry): Map<string, OfferedList[]> {
  const lists = new Map<string, OfferedList[]>();
  for (const source of models) {
    for (const field of [...source.fields, ...registry.contributedFields(source)]) {
      const name = field.related;
      if (!name) continue;
      for (const target of models) {
        const relate = field.referring(target, registry);
        if (!relate) continue;
        const offered = lists.get(target.key) ?? [];
        const clash = offered.find((l) => l.link.name === name);
        if (clash) throw new Error(`${target.key}: ${source.key}.${field.name} and ${clash.source.key} both offer the list "${name}"; rename one's \`related\``);
        lists.set(target.key, [...offered, { source, link: { name, relate } }]);
      }
    }
  }
  return lists;
}
