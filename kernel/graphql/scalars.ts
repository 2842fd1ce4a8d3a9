import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** A literal's value as JSON (objects, lists, numbers, text, booleans, null). */
function literal(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literal(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}

/** Any JSON value, as NetBox's `JSON` scalar (custom fields, config data). */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literal,
});

/** A whole number that may pass 32 bits (AS numbers, speeds), rendered as a JSON number, as NetBox's `BigInt`. */
export const BigIntScalar = new GraphQLScalarType({
  name: 'BigInt',
  description: 'A whole number that may not fit 32 bits, as a JSON number.',
  serialize: (value) => Number(value),
  parseValue: wholeNumber,
  parseLiteral: (node) => wholeNumber(node.kind === Kind.INT || node.kind === Kind.STRING ? node.value : undefined),
});

function wholeNumber(value: unknown): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new GraphQLError(`BigInt cannot represent ${JSON.stringify(value)}.`);
  return n;
}

/** A decimal as text with its places (`"40.712800"`), as NetBox's `Decimal`. */
export const DecimalScalar = textScalar('Decimal', 'A decimal number as text, e.g. "40.712800".', /^-?\d+(\.\d+)?$/);

/** ISO 8601 with its UTC offset (`2025-03-01T10:20:30.123456+00:00`), as NetBox's `DateTime`. */
export const DateTimeScalar = textScalar('DateTime', 'A date and time, ISO 8601 with an offset, e.g. "2025-03-01T10:20:30.123456+00:00".', /^\d{4}-\d{2}-\d{2}T/);

export const DateScalar = textScalar('Date', 'A date, ISO 8601, e.g. "2025-03-01".', /^\d{4}-\d{2}-\d{2}$/);

/** A scalar read and written as text of a given shape. */
function textScalar(name: string, description: string, shape: RegExp): GraphQLScalarType {
  const parse = (value: unknown) => {
    if (typeof value !== 'string' || !shape.test(value)) throw new GraphQLError(`${name} cannot represent ${JSON.stringify(value)}.`);
    return value;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => value,
    parseValue: parse,
    parseLiteral: (node) => parse(node.kind === Kind.STRING ? node.value : undefined),
  });
}

/** A plugin's own scalar (a field kind's `scalar`): rendered as its JSON, taken as given. */
export function pluginScalar(name: string): GraphQLScalarType {
  return new GraphQLScalarType({ name, serialize: (value) => value, parseValue: (value) => value, parseLiteral: literal });
}

/** One value or a list of them, given to a REST filter as its query-string values. */
function filterValues(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  if (values.some((v) => !['string', 'number', 'boolean'].includes(typeof v))) throw new GraphQLError('FilterValues takes text, numbers, booleans or a list of them.');
  return values.map(String);
}

/**
 * What the REST API's own filters take (`q`, `tag`, a model's methods such as `parent`): one value or a list,
 * as text, numbers or booleans, read as the query string would carry them (`tag: ["core", "edge"]`, `assigned: true`).
 */
export const FilterValuesScalar = new GraphQLScalarType({
  name: 'FilterValues',
  description: 'One value or a list of values (text, numbers or booleans), as the REST filter of the same name takes them.',
  serialize: (value) => value,
  parseValue: filterValues,
  parseLiteral: (node, variables) => filterValues(literal(node, variables)),
});
