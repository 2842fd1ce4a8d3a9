import { GraphQLError, isEnumType, type GraphQLEnumType, type GraphQLSchema } from 'graphql';

/** Members an enum's hint lists before it only counts the rest (InterfaceTypeEnum has some 200). */
const LISTED = 12;

/**
 * graphql-js's words for a value an enum does not have, each with the value and the enum's name: in the query text
 * as a string (`status: "active"`) or as a name (`status: active`), and in a variable.
 */
const REFUSALS: { pattern: RegExp; quoted?: boolean; parts: (m: RegExpExecArray) => { value: string; enumName: string } }[] = [
  { pattern: /^Enum "(\w+)" cannot represent non-enum value: (.+?)\.(?: |$)/, quoted: true, parts: (m) => ({ enumName: m[1], value: m[2] }) },
  { pattern: /^Value "(.+?)" does not exist in "(\w+)" enum\./, parts: (m) => ({ value: JSON.stringify(m[1]), enumName: m[2] }) },
  { pattern: /^Variable "\$\w+" got invalid value (.+?); (?:Expected type|Value ".+?" does not exist in) "?(\w+)"?/, parts: (m) => ({ value: m[1], enumName: m[2] }) },
];

/** The value as the client wrote it (a JSON string's text), or undefined when it is no string. */
function text(json: string): string | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** What to write instead: the members whose stored value, or whose name's last part, is what was written. */
function meant(type: GraphQLEnumType, written: string): string[] {
  const lower = written.toLowerCase();
  const upper = written.toUpperCase().replace(/[^_A-Z0-9]/g, '_');
  const values = type.getValues();
  const exact = values.filter((v) => String(v.value).toLowerCase() === lower || v.name === upper || v.name.endsWith(`_${upper}`));
  // Else a part of a name (`ACTIV`), when it names few.
  const part = upper.length >= 3 ? values.filter((v) => v.name.includes(upper)) : [];
  return (exact.length ? exact : part.length <= 3 ? part : []).map((v) => v.name);
}

/** The hint for a refused enum value: the member meant, if one is, and the members the enum takes. */
function hint(type: GraphQLEnumType, written: string | undefined, quoted: boolean): string {
  const names = type.getValues().map((v) => v.name);
  const candidates = written === undefined ? [] : meant(type, written);
  const listed = names.length > LISTED ? `${names.slice(0, LISTED).join(', ')}, … (${names.length} in all)` : names.join(', ');
  const mean = candidates.length ? ` Did you mean ${candidates.join(' or ')}?${quoted ? ' A member is written bare, without quotes.' : ''}` : '';
  return `${mean} ${type.name} takes: ${listed}.`;
}

/**
 * GraphQL's errors, those refusing an enum value made to say what to write instead: the member whose value was
 * written (`"active"` → STATUS_ACTIVE) and the members the enum takes. Other errors are returned as they are.
 */
export function withEnumHints(schema: GraphQLSchema, errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map((error) => {
    for (const { pattern, quoted = false, parts } of REFUSALS) {
      const match = pattern.exec(error.message);
      if (!match) continue;
      const { value, enumName } = parts(match);
      const type = schema.getType(enumName);
      if (!type || !isEnumType(type)) return error;
      return new GraphQLError(`${error.message}${hint(type, error.message.includes('Did you mean') ? undefined : text(value), quoted)}`, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, originalError: error.originalError, extensions: error.extensions });
    }
    return error;
  });
}
