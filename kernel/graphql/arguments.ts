import { visit, type DocumentNode } from 'graphql';
import { badText, textProblem } from '../base/text.js';

/**
 * How deep argument values (filters' AND / OR / NOT and relations) and variables may nest: far beyond what a filter
 * needs, and short of what would make checking them cost the server seconds.
 */
export const MAX_ARGUMENT_DEPTH = 20;

/** How deep a JSON value nests (objects and lists), counted without recursion; past `limit` it stops counting. */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) break;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * What is wrong with a query's argument values before anything runs: text PostgreSQL cannot take (a NUL character, a
 * lone surrogate) or values nested deeper than MAX_ARGUMENT_DEPTH. graphql-js's visitor keeps its own stack, so a
 * deep document does not exhaust the call stack here.
 */
export function documentProblem(document: DocumentNode): string | undefined {
  let depth = 0;
  let problem: string | undefined;
  const nest = {
    enter: () => {
      depth += 1;
      if (depth > MAX_ARGUMENT_DEPTH) problem ??= `Argument values may nest at most ${MAX_ARGUMENT_DEPTH} levels.`;
    },
    leave: () => void (depth -= 1),
  };
  visit(document, {
    ObjectValue: nest,
    ListValue: nest,
    StringValue: (node) => void (problem ??= textProblem(node.value)),
  });
  return problem;
}

/** The same for the variables' values. */
export function variablesProblem(variables: Record<string, unknown>): string | undefined {
  // The variables' own object is one level more than the values it holds.
  if (depthOf(variables, MAX_ARGUMENT_DEPTH + 1) > MAX_ARGUMENT_DEPTH + 1) return `Variables may nest at most ${MAX_ARGUMENT_DEPTH} levels.`;
  return badText(variables);
}
