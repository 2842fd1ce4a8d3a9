import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';

/** The models the GraphQL schema serves: those served over REST, unless a declaration says `graphql: false`. */
export function graphqlModels(registry: ModelRegistry): Model[] {
  return registry.all().filter((m) => m.served && m.decl.graphql !== false);
}

/**
 * Each model's GraphQL type name (`<className>Type`; its root fields are `<class_name>` and `<class_name>_list`).
 * Two models called alike, a plugin's and a built-in's or two plugins', stop start-up, naming both.
 */
export function graphqlTypeNames(models: Model[]): Map<string, string> {
  const named = new Map<string, Model>();
  for (const model of models) {
    const other = named.get(model.className);
    if (other) throw new Error(`${model.key} and ${other.key} are both called ${model.className} in GraphQL: declare the className of one`);
    named.set(model.className, model);
  }
  return new Map(models.map((m) => [m.key, `${m.className}Type`]));
}
