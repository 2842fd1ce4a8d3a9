import {
  execute, getNamedType, getOperationAST, isInputObjectType, typeFromAST,
  type DocumentNode, type ExecutionResult, type GraphQLInputType, type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { RecentlyUsed } from '../base/collections.js';
import type { GraphContext } from './context.js';

/** Compiled queries kept, the least recently used dropped first: the queries a deployment's clients repeat. */
const KEPT = 200;
/**
 * The compiler writes out the coercion of every input field a variable's type reaches, recursively: a variable of
 * a model's filter type (its lookups and the filters of every related model) would take seconds to compile. An
 * operation whose variables reach more input fields than this runs on GraphQL's own executor.
 */
const MOST_VARIABLE_FIELDS = 200;

/** Input fields a compiler would write out for `type`, counted until past `budget`. */
function inputFields(type: GraphQLInputType, budget: number): number {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return 0;
  let count = 0;
  for (const field of Object.values(named.getFields())) {
    // Each level down has less to spend: a type that reaches itself ends too.
    if (count >= budget) return count + 1;
    count += 1 + inputFields(field.type, budget - count - 1);
  }
  return count;
}

/** Whether the operation's variables are few and plain enough to compile quickly (exported for its test). */
export function compilable(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): boolean {
  let count = 0;
  for (const definition of getOperationAST(document, operationName)?.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type) count += inputFields(type, MOST_VARIABLE_FIELDS - count);
    if (count > MOST_VARIABLE_FIELDS) return false;
  }
  return true;
}

/**
 * Runs validated queries, each compiled once into a function of its own (graphql-jit) and kept by its text: the
 * compiled form resolves a list of thousands of objects without the generic executor's per-field work (argument
 * coercion and type checks for every object), which is most of what a large query costs. A document the compiler
 * refuses, or would take long to compile, runs on GraphQL's own executor.
 */
export class QueryRunner {
  private readonly compiled = new RecentlyUsed<string, CompiledQuery | null>(KEPT);

  constructor(readonly schema: GraphQLSchema) {}

  /** `document` must be the validated form of `text` (the key it is compiled under). */
  async run(text: string, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>, context: GraphContext): Promise<ExecutionResult> {
    const key = `${operationName ?? ''}\n${text}`;
    let query = this.compiled.get(key);
    if (query === undefined) {
      const compiled = compilable(this.schema, document, operationName)
        ? compileQuery(this.schema, document, operationName, { disablingCapturingStackErrors: true })
        : undefined;
      query = compiled && isCompiledQuery(compiled) ? compiled : null;
      this.compiled.set(key, query);
    }
    if (query) return query.query(undefined, context, variables) as ExecutionResult | Promise<ExecutionResult>;
    return execute({ schema: this.schema, document, variableValues: variables, operationName, contextValue: context });
  }
}
