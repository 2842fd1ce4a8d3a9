import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import { columnsRead, readKeys } from '../model/render.js';

/** The names a field's selection asks for, its fragments' included (those on any type: unions ask per member). */
export function selectedNames(nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        visit(fragments[selection.name.value]?.selectionSet);
      }
    }
  };
  for (const node of nodes) visit(node.selectionSet);
  return names;
}

/**
 * The columns rendering `names` of `model` reads, to select instead of every column (a list of interfaces asking
 * for their names reads three columns of forty); undefined when one of them needs the whole row, or is one of
 * `rowReaders` (fields plugins contribute read the row as they like). Other names (lists, `class_type`, fields of
 * a union's other members) read no column.
 */
export function columnsFor(model: Model, names: Set<string>, registry: ModelRegistry, rowReaders: ReadonlySet<string>): string[] | undefined {
  if ([...names].some((name) => rowReaders.has(name))) return undefined;
  return columnsRead(registry.outputFields(model, 'full').filter((f) => readKeys(f, registry).some((k) => names.has(k))));
}
