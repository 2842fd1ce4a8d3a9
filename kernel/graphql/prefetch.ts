import {
  GraphQLIncludeDirective, GraphQLSkipDirective, Kind, getArgumentValues, getDirectiveValues,
  type FieldNode, type FragmentDefinitionNode, type GraphQLObjectType, type GraphQLResolveInfo, type SelectionSetNode,
} from 'graphql';
import type { Batch, Loaded } from './batch.js';
import type { GraphContext } from './context.js';
import type { Inline, InlineList } from './inline.js';
import { appendTo } from '../base/collections.js';

/**
 * What a field of a model's type loads for a whole batch, ahead of GraphQL's resolution: the related objects (and
 * their batches, to walk on) or the field's computed values; undefined when it has nothing to load.
 */
export type Prefetch = (batch: Batch, args: Record<string, unknown>, ctx: GraphContext, nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>) => Promise<Loaded | unknown> | undefined;

type Variables = Record<string, unknown>;

/** Whether @skip or @include leaves the selection out. */
function skipped(node: FieldNode | { directives?: FieldNode['directives'] }, variables: Variables): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, variables);
  const include = getDirectiveValues(GraphQLIncludeDirective, node, variables);
  return skip?.if === true || include?.if === false;
}

/** What selections are read with: the schema, the operation's variables (coerced) and its fragments. */
export type Scope = Pick<GraphQLResolveInfo, 'schema' | 'variableValues' | 'fragments'>;

/** The fields the selections ask of objects of `type`, by response key, in document order (as GraphQL merges them). */
export function collect(type: GraphQLObjectType, sets: readonly SelectionSetNode[], info: Scope): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const seen = new Set<string>();
  const applies = (condition: string | undefined) => !condition || condition === type.name || (info.schema.getType(condition) as { getTypes?: () => { name: string }[] })?.getTypes?.().some((t) => t.name === type.name);
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (skipped(selection, info.variableValues)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        appendTo(fields, key, selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(selection.typeCondition?.name.value)) visit(selection.selectionSet);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = info.fragments[selection.name.value];
        if (fragment && applies(fragment.typeCondition.name.value)) visit(fragment.selectionSet);
      }
    }
  };
  sets.forEach(visit);
  return fields;
}

/**
 * The lists below `nodes` (the fields of a root list's objects) that can be read in the root list's statement: those
 * whose field offers it (`Inline`). A list whose filters do not compile is left to its resolver, which reports it.
 */
export async function inlineLists(type: GraphQLObjectType, nodes: readonly FieldNode[], info: GraphQLResolveInfo, ctx: GraphContext): Promise<InlineList[]> {
  const sets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
  const lists = await Promise.all([...collect(type, sets, info).values()].map(async (fieldNodes) => {
    const definition = type.getFields()[fieldNodes[0].name.value];
    const inline = definition?.extensions?.inline as Inline | undefined;
    return inline?.(getArgumentValues(definition, fieldNodes[0], info.variableValues), ctx, fieldNodes, info.fragments).catch(() => undefined);
  }));
  return lists.filter((list): list is InlineList => list !== undefined);
}

/**
 * Loads what a query asks below `nodes` for the batches at hand, level after level, before GraphQL resolves a
 * field of theirs: each relation and computed field once per batch, the levels below once the level above is
 * loaded. GraphQL then finds everything loaded and resolves synchronously (a promise per object and field is
 * most of what a large query costs). A load that fails is left to the field's resolver, which reports it at its
 * path.
 */
export async function prefetch(batches: Batch[], nodes: readonly FieldNode[], info: GraphQLResolveInfo, ctx: GraphContext, typeOf: (batch: Batch) => string): Promise<void> {
  const sets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
  await Promise.all(
    batches.map(async (batch) => {
      if (!batch.nodes.length) return;
      const type = info.schema.getType(typeOf(batch)) as GraphQLObjectType;
      await Promise.all(
        [...collect(type, sets, info).values()].map(async (fieldNodes) => {
          const definition = type.getFields()[fieldNodes[0].name.value];
          const hook = definition?.extensions?.prefetch as Prefetch | undefined;
          if (!hook) return;
          try {
            const loaded = await hook(batch, getArgumentValues(definition, fieldNodes[0], info.variableValues), ctx, fieldNodes, info.fragments);
            const children = (loaded as Loaded | undefined)?.batches;
            if (children) await prefetch(children, fieldNodes, info, ctx, typeOf);
          } catch {
            // The field's resolver reports the error at its path.
          }
        }),
      );
    }),
  );
}
