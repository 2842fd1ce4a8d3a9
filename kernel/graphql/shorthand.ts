import {
  Kind, TypeInfo, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, typeFromAST, visit, visitWithTypeInfo,
  type DocumentNode, type GraphQLEnumType, type GraphQLInputObjectType, type GraphQLInputType, type GraphQLSchema, type ObjectFieldNode, type ValueNode, type VariableDefinitionNode,
} from 'graphql';
import { aliasesOf } from './enums.js';

/** A lookup input (`StrFilterLookup`, `IntegerLookup`…): it takes `exact` and `in_list`. */
function isLookup(type: GraphQLInputType | null | undefined): boolean {
  const named = type ? (isNonNullType(type) ? type.ofType : type) : undefined;
  if (!named || !isInputObjectType(named)) return false;
  const fields = named.getFields();
  return 'exact' in fields && 'in_list' in fields;
}

/** `{exact: value}`, or `{in_list: [...]}` for a list, for `lookup`: an enum's aliases made its members. */
function wrap(value: ValueNode, lookup: GraphQLInputType): ValueNode {
  const key = value.kind === Kind.LIST ? 'in_list' : 'exact';
  const type = enumOf((getNamedType(lookup) as GraphQLInputObjectType).getFields()[key].type);
  const named = (v: ValueNode): ValueNode => (type && v.kind === Kind.ENUM ? { ...v, value: member(type, v.value) } : v);
  const inner = value.kind === Kind.LIST ? { ...value, values: value.values.map(named) } : named(value);
  const field: ObjectFieldNode = { kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: key }, value: inner };
  return { kind: Kind.OBJECT, fields: [field] };
}

/** The enum a value is given for, if it is one. */
function enumOf(type: GraphQLInputType | null | undefined): GraphQLEnumType | undefined {
  const named = type ? getNamedType(type) : undefined;
  return named && isEnumType(named) ? named : undefined;
}

/** An enum's member for `name`: itself, or the member an alias stands for (`STATUS_ACTIVE` for `ACTIVE`). */
function member(type: GraphQLEnumType, name: string): string {
  return type.getValue(name) ? name : aliasesOf(type)[name] ?? name;
}

/**
 * The short forms of older and newer NetBox filters, made into the lookups the schema declares: a bare value
 * where a lookup is expected (`enabled: true`, `status: STATUS_ACTIVE`, `id: "5"`) is `{exact: …}`, a bare list
 * `{in_list: […]}`, and an enum's alias its member, in the query text and in variables alike. Anything else is left
 * to validation.
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
      ObjectField: { leave: (node) => (isLookup(info.getInputType()) && bare(node.value) ? { ...node, value: wrap(node.value, info.getInputType()!) } : undefined) },
      Argument: { leave: (node) => (isLookup(info.getInputType()) && bare(node.value) ? { ...node, value: wrap(node.value, info.getInputType()!) } : undefined) },
      EnumValue: (node) => {
        const type = enumOf(info.getInputType());
        const named = type && member(type, node.value);
        return named && named !== node.value ? { ...node, value: named } : undefined;
      },
    }),
  );
}

/** The same for a variable's JSON value, walked along its declared type. */
function expandValue(type: GraphQLInputType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return Array.isArray(value) ? value.map((v) => expandValue(inner.ofType, v)) : expandValue(inner.ofType, value);
  if (isEnumType(inner)) return typeof value === 'string' ? member(inner, value) : value;
  if (!isInputObjectType(inner)) return value;
  // A bare value for a lookup is its `exact` (a list its `in_list`), then walked as one.
  const given = isLookup(inner) && (typeof value !== 'object' || Array.isArray(value)) ? (Array.isArray(value) ? { in_list: value } : { exact: value }) : value;
  if (typeof given !== 'object' || Array.isArray(given)) return given;
  const fields = inner.getFields();
  return Object.fromEntries(Object.entries(given).map(([k, v]) => [k, k in fields ? expandValue(fields[k].type, v) : v]));
}

