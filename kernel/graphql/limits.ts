import {
  GraphQLError, Kind, getNamedType, isCompositeType, isListType, isNonNullType, isObjectType, valueFromASTUntyped,
  type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type GraphQLCompositeType, type GraphQLField,
  type GraphQLOutputType, type OperationDefinitionNode, type SelectionSetNode, type ValidationContext, type ValidationRule,
} from 'graphql';

export interface QueryLimits {
  maxAliases: number;
  /** 0: no limit. */
  maxDepth: number;
  maxCost: number;
  /** What a root list without `pagination.limit` may return (MAX_PAGE_SIZE). */
  rootListSize: number;
  /** What a nested list without `pagination.limit` is assumed to hold. */
  assumedListSize: number;
}

const MAX_VISITS = 100_000;

const isList = (type: GraphQLOutputType): boolean => isListType(isNonNullType(type) ? type.ofType : type);

/** The selections of a set with its fragments spread in (each fragment once per path, so cycles end). */
function* fieldsOf(set: SelectionSetNode, ctx: ValidationContext, seen: ReadonlySet<string> = new Set()): Generator<{ field: FieldNode; on?: string }> {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) yield { field: selection };
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      for (const f of fieldsOf(selection.selectionSet, ctx, seen)) yield { on: selection.typeCondition?.name.value, ...f };
    } else if (!seen.has(selection.name.value)) {
      const fragment: FragmentDefinitionNode | undefined | null = ctx.getFragment(selection.name.value);
      if (fragment) for (const f of fieldsOf(fragment.selectionSet, ctx, new Set([...seen, selection.name.value]))) yield { on: fragment.typeCondition.name.value, ...f };
    }
  }
}

/** How many objects a list field may hold: its page's limit, else what the limits assume. */
function listSize(field: FieldNode, root: boolean, limits: QueryLimits, variables: Record<string, unknown>): number {
  const pagination = field.arguments?.find((a) => a.name.value === 'pagination');
  const value = pagination ? (valueFromASTUntyped(pagination.value, variables) as { limit?: unknown } | null) : undefined;
  if (value && typeof value === 'object') {
    const limit = typeof value.limit === 'number' ? value.limit : 100;
    return Math.max(1, Math.min(limit, limits.rootListSize));
  }
  return root ? limits.rootListSize : limits.assumedListSize;
}

/**
 * The limits NetBox's GRAPHQL_MAX_ALIASES and GRAPHQL_MAX_QUERY_DEPTH set, and an estimated cost (the objects a
 * query may read: page sizes multiplied down the tree), checked as validation rules: a query past one is refused
 * with a clear error before any SQL runs.
 */
export function limitRules(limits: QueryLimits, variables: () => Record<string, unknown>): ValidationRule[] {
  const aliases: ValidationRule = (ctx) => {
    let count = 0;
    return {
      Field(node) {
        if (node.alias) count++;
      },
      Document: {
        leave() {
          if (count > limits.maxAliases) ctx.reportError(new GraphQLError(`${count} aliases found. Allowed: ${limits.maxAliases}`));
        },
      },
    };
  };

  const shape: ValidationRule = (ctx): ASTVisitor => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      const root = ctx.getSchema().getRootType(operation.operation);
      if (!root) return;
      // The operation as the client wrote it: by its name, or as the one query (strawberry's 'anonymous' reads as a user).
      const name = operation.name ? `'${operation.name.value}'` : `This ${operation.operation}`;
      let deepest = 0;
      let cost = 0;
      // Fragments spread in many places multiply the work of walking; past this many fields, the cost is too high anyway.
      let visits = 0;
      const walk = (set: SelectionSetNode, type: GraphQLCompositeType, depth: number, multiplier: number) => {
        deepest = Math.max(deepest, depth);
        if ((limits.maxDepth && depth > limits.maxDepth) || cost > limits.maxCost) return;
        for (const { field, on } of fieldsOf(set, ctx)) {
          if (++visits > MAX_VISITS) {
            cost = Infinity;
            return;
          }
          const parent = on ? ctx.getSchema().getType(on) : type;
          const definition: GraphQLField<unknown, unknown> | undefined = parent && isObjectType(parent) ? parent.getFields()[field.name.value] : undefined;
          if (!definition || !field.selectionSet) continue;
          const named = getNamedType(definition.type);
          const size = isList(definition.type) ? listSize(field, type === root, limits, variables()) : 1;
          const reads = multiplier * size;
          cost += reads;
          if (isCompositeType(named)) walk(field.selectionSet, named, depth + 1, reads);
        }
      };
      walk(operation.selectionSet, root, 0, 1);
      if (limits.maxDepth && deepest > limits.maxDepth) {
        ctx.reportError(new GraphQLError(`${name} exceeds maximum operation depth of ${limits.maxDepth}`, { nodes: [operation] }));
      } else if (cost > limits.maxCost) {
        ctx.reportError(
          new GraphQLError(
            `${name} may read ${cost} objects, more than the ${limits.maxCost} allowed (GRAPHQL_MAX_COST): give lists a smaller pagination limit, or nest fewer lists.`,
            { nodes: [operation] },
          ),
        );
      }
    },
  });
  return [aliases, shape];
}
