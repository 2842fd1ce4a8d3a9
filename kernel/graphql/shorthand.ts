import {
  Kind, TypeInfo, isInputObjectType, isListType, isNonNullType, typeFromAST, visit, visitWithTypeInfo,
  type DocumentNode, type GraphQLInputType, type GraphQLSchema, type ObjectFieldNode, type ValueNode, type VariableDefinitionNode,
} from 'graphql';

/** A lookup input (`StrFilterLookup`, `IntegerLookup`…): it takes `exact` and `in_list`. */
function isLookup(type: GraphQLInputType | null | undefined): boolean {
  const named = type ? (isNonNullType(type) ? type.ofType : type) : undefined;
  if (!named || !isInputObjectType(named)) return false;
  const fields = named.getFields();
  return 'exact' in fields && 'in_list' in fields;
}

/** `{exact: value}`, or `{in_list: [...]}` for a list. */
function wrap(value: ValueNode): ValueNode {
  const key = value.kind === Kind.LIST ? 'in_list' : 'exact';
  const field: ObjectFieldNode = { kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: key }, value };
  return { kind: Kind.OBJECT, fields: [field] };
}

/**
 * The short forms of older and newer NetBox filters, made into the lookups the schema declares: a bare value
 * where a lookup is expected (`enabled: true`, `status: STATUS_ACTIVE`, `id: "5"`) is `{exact: …}`, a bare list
 * `{in_list: […]}`, in the query text and in variables alike. Anything else is left to validation.
 */
export function expandShorthand(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): DocumentNode {
  const declared = new Map<string, VariableDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) for (const v of definition.variableDefinitions ?? []) declared.set(v.variable.name.value, v);
  }
  for (const [name, definition] of declared) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type && name in variables) variables[name] = expandValue(type, variables[name]);
  }
  const info = new TypeInfo(schema);
  /** Whether a value given where a lookup is expected is a bare one (a variable: when declared as no lookup). */
  const bare = (value: ValueNode) => {
    if (value.kind === Kind.OBJECT || value.kind === Kind.NULL) return false;
    if (value.kind !== Kind.VARIABLE) return true;
    const definition = declared.get(value.name.value);
    return !!definition && !isLookup(typeFromAST(schema, definition.type) as GraphQLInputType | undefined);
  };
  return visit(
    document,
    visitWithTypeInfo(info, {
      ObjectField: { leave: (node) => (isLookup(info.getInputType()) && bare(node.value) ? { ...node, value: wrap(node.value) } : undefined) },
      Argument: { leave: (node) => (isLookup(info.getInputType()) && bare(node.value) ? { ...node, value: wrap(node.value) } : undefined) },
    }),
  );
}

/** The same for a variable's JSON value, walked along its declared type. */
function expandValue(type: GraphQLInputType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return Array.isArray(value) ? value.map((v) => expandValue(inner.ofType, v)) : expandValue(inner.ofType, value);
  if (!isInputObjectType(inner)) return value;
  if (isLookup(inner) && (typeof value !== 'object' || Array.isArray(value))) return Array.isArray(value) ? { in_list: value } : { exact: value };
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  const fields = inner.getFields();
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k in fields ? expandValue(fields[k].type, v) : v]));
}

