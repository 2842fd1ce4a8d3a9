import { appendTo } from 'patchbay';
/** One object of a cable path, as paths store it: `<model key>:<id>` (`dcim.interface:12`). */
export type PathNode = string;

export const nodeOf = (model: string, id: number): PathNode => `${model}:${id}`;

export function parseNode(node: PathNode): { model: string; id: number } {
  const split = node.lastIndexOf(':');
  return { model: node.slice(0, split), id: Number(node.slice(split + 1)) };
}

/** The ids of `nodes` by model, in the order they come. */
export function idsByModel(nodes: Iterable<PathNode>): Map<string, number[]> {
  const found = new Map<string, number[]>();
  for (const node of nodes) {
    const { model, id } = parseNode(node);
    appendTo(found, model, id);
  }
  return found;
}
