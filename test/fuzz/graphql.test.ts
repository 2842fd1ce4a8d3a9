import {
  buildClientSchema, getIntrospectionQuery, getNamedType, isCompositeType, isEnumType, isInputObjectType, isLeafType, isListType,
  isNonNullType, isObjectType, type GraphQLCompositeType, type GraphQLField, type GraphQLInputType, type GraphQLObjectType,
  type GraphQLSchema, type IntrospectionQuery,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCircuits } from '../helpers/seed-circuits.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedTenancy } from '../helpers/seed.js';
import { seedVirtualization } from '../helpers/seed-virtualization.js';
import { EXAMPLE_PLUGIN, startServer, type TestServer } from '../helpers/server.js';
import { HOSTILE_JSON } from './generate.js';
import { Fuzz, json, type Answer, type Sent } from './harness.js';

/**
 * A seeded fuzz of `/graphql/`: random queries built from the introspected schema (selections, filters and
 * pages over every type, inline or as variables, often with hostile values), hostile documents (depth, aliases,
 * cost, fragment cycles and bombs, huge strings, bad variables, malformed bodies, batches, operation names,
 * introspection) and mutations. Every answer must be 200 with `data` or a 400 with `errors`, each error with a
 * message and none a masked "Server error"; never a 5xx, a hang, SQL or a stack. GraphQL never writes.
 */

const f = new Fuzz('test/fuzz/graphql.test.ts');
const { r } = f;
const MAX_DEPTH = 10;
const MAX_ALIASES = 10;
/** GraphQL's answer, as far as these tests read it. */
interface Result {
  data?: unknown;
  errors?: { message?: unknown }[];
}

let t: TestServer;
let schema: GraphQLSchema;
let roots: GraphQLField<unknown, unknown>[];
/** Every REST list, and their counts before any GraphQL request: GraphQL being read-only, they never change. */
let lists: string[];
let counts: string;

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN], settings: { GRAPHQL_MAX_QUERY_DEPTH: MAX_DEPTH, GRAPHQL_MAX_ALIASES: MAX_ALIASES } });
  f.target(t);
  const db = t.server.db.knex;
  for (const seed of [seedTenancy, seedDcim, seedIpam, seedVirtualization, seedCircuits]) await seed(db, 8);
  await t.post('/api/extras/tags/', { name: 'Gold', slug: 'gold' });
  await t.post('/api/extras/custom-fields/', { name: 'note', type: 'text', object_types: ['dcim.site', 'tenancy.tenant'] });
  await t.post('/api/plugins/maintenance/windows/', { name: 'Fuzz', starts: '2031-01-01T00:00:00Z', notify: false });
  const introspection = await t.post('/graphql/', { query: getIntrospectionQuery() });
  expect(introspection.status).toBe(200);
  schema = buildClientSchema(introspection.body.data as IntrospectionQuery);
  roots = Object.values(schema.getQueryType()!.getFields());
  lists = [...new Set(t.server.registry.all().filter((m) => m.served).map((m) => t.server.registry.apiPath(m)))];
  counts = await f.snapshot(lists);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

// ---- Values -------------------------------------------------------------------------------------------------------

/** Text to break filters: SQL, NUL, lone surrogates, bad regular expressions, huge, odd numbers and dates. */
const TEXT = [
  '', 'a', 'Site 1', 'site-1', 'Tenant 2', 'device3', "' OR 1=1 --", '"; drop table dcim_site; --', "1' union select password from users_user --",
  '\u0000', 'a\u0000b', '\ud800', '\udfff\ud800', '😀', '%', '_', '\\', '(', '[', '*', '+', '?', '(?<=a)b', '(a+)+$', 'a{1,99999}', '\\1',
  '[[:alpha:]]', '(?i)x', '\\p{L}', 'x'.repeat(20_000), '{{ 7*7 }}', '../../etc/passwd', '2024-01-01', '10.0.0.0/8', 'active', 'null', ' 1', '\n', 'é',
];
const IDS = ['1', '2', '3', '0', '-1', '2147483647', '2147483648', '4294967296', '9999999999', '99999999999', '9'.repeat(40), 'abc', '1e3', ' 1', '01', '1.0', '\u0000', ''];
const INTS = [0, 1, 2, 3, 5, 10, 100, 2147483647, -1, -2147483648];
/** Values of the wrong type for any argument: nulls, nested objects, huge numbers. */
const WRONG = [null, { nested: { deep: [1] } }, [[[]]], 1e308, -1e308, 2 ** 53 + 2, 2147483648, 1.5, '', 'x'.repeat(100_000), true, {}, [null]];
const SCALARS: Record<string, readonly unknown[]> = {
  String: TEXT,
  ID: IDS,
  Int: INTS,
  Float: [0, 1.5, -1, 1e308, -1e308, 48.5, 5e-324],
  Boolean: [true, false],
  BigInt: [0, 1, 64512, 4294967295, 9007199254740991, '9007199254740993', '-1', '99999999999999999999', 1e20],
  DateTime: ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00+00:00', '2024-02-30T00:00:00Z', '2024-13-45T25:61:61Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2024-01-01Tnope', '2024-01-01T00:00:00+99:99'],
  Date: ['2024-01-01', '2024-02-30', '0000-00-00', '0000-01-01', '9999-12-31', '2024-13-01'],
  Decimal: ['1.5', '0', '-0.000001', '99999999999999999999999999999.9', `1${'0'.repeat(400)}`],
  JSON: HOSTILE_JSON,
  FilterValues: [...TEXT, ['a', 'b'], [1, '\u0000'], 1, true],
};

/** A value for an input type: mostly of the right shape (so that resolvers run), hostile inside; `wrong` sometimes not. */
function inputValue(type: GraphQLInputType, depth: number, wrong: boolean): unknown {
  if (wrong && r.chance(0.06)) return r.pick(WRONG);
  if (isNonNullType(type)) return inputValue(type.ofType, depth, wrong);
  if (isListType(type)) return Array.from({ length: r.int(3) }, () => inputValue(type.ofType, depth + 1, wrong));
  if (isEnumType(type)) return r.pick(type.getValues()).name;
  if (isInputObjectType(type)) {
    // Filters nest (AND, relations): a few levels, then empty.
    if (depth > 4) return {};
    const fields = Object.values(type.getFields());
    const chosen = new Set([...fields.filter((x) => isNonNullType(x.type)), ...r.some(fields, 3)]);
    return Object.fromEntries([...chosen].map((x) => [x.name, inputValue(x.type, depth + 1, wrong)]));
  }
  return r.pick(SCALARS[type.name] ?? TEXT);
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** A NUL or a lone surrogate as JSON escapes them. */
const INVALID_TEXT = /\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

/** A value as a GraphQL literal, typed where the type is known (enums bare). */
function literal(type: GraphQLInputType | undefined, value: unknown): string {
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => literal(inner && isListType(inner) ? inner.ofType : inner, v)).join(', ')}]`;
  if (typeof value === 'object') {
    const fields = inner && isInputObjectType(inner) ? inner.getFields() : {};
    return `{${Object.entries(value).filter(([k]) => NAME.test(k)).map(([k, v]) => `${k}: ${literal(fields[k]?.type, v)}`).join(', ')}}`;
  }
  if (typeof value === 'string') return inner && isEnumType(inner) && NAME.test(value) && !['true', 'false', 'null'].includes(value) ? value : json(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  return String(value);
}

// ---- Documents ----------------------------------------------------------------------------------------------------

interface Gql {
  query: string;
  variables?: unknown;
  operationName?: unknown;
}

/** One random query over the schema: a root field, its arguments inline or as variables, nested selections. */
class QueryBuilder {
  private readonly definitions: string[] = [];
  private aliases = 0;
  readonly variables: Record<string, unknown> = {};
  /** Whether a value holds text GraphQL refuses before it runs (a NUL, a lone surrogate). */
  invalidText = false;

  constructor(private readonly wrong: boolean) {}

  private argument(type: GraphQLInputType): string {
    const value = inputValue(type, 0, this.wrong);
    this.invalidText ||= INVALID_TEXT.test(json(value) ?? '');
    if (!r.chance(0.4)) return literal(type, value);
    const name = `v${this.definitions.length}`;
    // Now and then declared with another type than the argument's: a validation error.
    this.definitions.push(`$${name}: ${this.wrong && r.chance(0.05) ? r.pick(['String', 'Int!', '[ID]', 'JSON', 'Nope']) : String(type)}`);
    this.variables[name] = value;
    return `$${name}`;
  }

  field(field: GraphQLField<unknown, unknown>, depth: number): string {
    const args = field.args.filter((a) => isNonNullType(a.type) || r.chance(0.5)).map((a) => `${a.name}: ${this.argument(a.type)}`);
    const named = getNamedType(field.type);
    // Aliases differ: two fields under one alias is a validation error, not a well-typed query.
    const alias = this.aliases < MAX_ALIASES && r.chance(0.05) ? `a${this.aliases++}: ` : '';
    const selection = isCompositeType(named) ? ` { ${this.selection(named, depth + 1)} }` : '';
    return `${alias}${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection}`;
  }

  private selection(type: GraphQLCompositeType, depth: number): string {
    if (!isObjectType(type)) {
      const members = schema.getPossibleTypes(type);
      return `__typename ${[...new Set(r.some(members, 2))].map((m) => `... on ${m.name} { ${this.selection(m, depth)} }`).join(' ')}`;
    }
    const fields = Object.values(type.getFields());
    const leaves = fields.filter((x) => isLeafType(getNamedType(x.type)));
    const nested = fields.filter((x) => isCompositeType(getNamedType(x.type)));
    const chosen = new Set(r.some(leaves.length ? leaves : fields, 4));
    if (depth < 3 && nested.length && r.chance(0.6)) r.some(nested, 2).forEach((x) => chosen.add(x));
    return [...chosen].map((x) => this.field(x, depth)).join(' ') || '__typename';
  }

  document(root: GraphQLField<unknown, unknown>): Gql & { invalidText: boolean } {
    const body = this.field(root, 0);
    const head = this.definitions.length ? `query Q(${this.definitions.join(', ')})` : r.pick(['', 'query ', 'query Q ']);
    return { query: `${head}{ ${body} }`, variables: this.definitions.length || r.chance(0.1) ? this.variables : undefined, invalidText: this.invalidText };
  }
}

const listRoots = () => roots.filter((x) => x.name.endsWith('_list'));
/** The root lists whose filters take a tree node (`site_list`, `region_id`), as pairs. */
const treeFilters = () =>
  listRoots().flatMap((root) => {
    const input = root.args.find((a) => a.name === 'filters')?.type;
    return input && isInputObjectType(input) ? Object.values(input.getFields()).filter((x) => getNamedType(x.type).name === 'TreeNodeFilter').map((x) => [root.name, x.name] as const) : [];
  });
const typeOf = (field: GraphQLField<unknown, unknown>) => getNamedType(field.type) as GraphQLObjectType;

/**
 * A chain of `length` nested object fields from a random root (`region_list { parent { parent { … } } }`), each list
 * with a page of `limit` (lists without pages left out; `listsOnly`: nothing but lists), optionally spelled as fragments.
 */
function chain(length: number, limit: number, listsOnly = false): string {
  const paged = (x: GraphQLField<unknown, unknown>) => (x.args.some((a) => a.name === 'pagination') ? `${x.name}(pagination: {limit: ${limit}})` : x.name);
  const usable = (x: GraphQLField<unknown, unknown>) => {
    const list = isListType(isNonNullType(x.type) ? x.type.ofType : x.type);
    return isObjectType(getNamedType(x.type)) && x.args.every((a) => !isNonNullType(a.type)) && (list ? x.args.some((a) => a.name === 'pagination') : !listsOnly);
  };
  for (;;) {
    const root = r.pick(listRoots());
    const steps: { name: string; type: GraphQLObjectType }[] = [{ name: paged(root), type: typeOf(root) }];
    while (steps.length < length) {
      const options = Object.values(steps.at(-1)!.type.getFields()).filter(usable);
      if (!options.length) break;
      const next = r.pick(options);
      steps.push({ name: paged(next), type: typeOf(next) });
    }
    if (steps.length < length) continue;
    if (!r.chance(0.3)) return `{ ${steps.map((s) => `${s.name} {`).join(' ')} __typename ${'}'.repeat(steps.length)} }`;
    // The same chain, each level a fragment on the type it selects from.
    const fragments = steps.slice(1).map((s, i) => `fragment F${i} on ${steps[i].type.name} { ${s.name} { ${i + 1 < steps.length - 1 ? `...F${i + 1}` : '__typename'} } }`);
    return `{ ${steps[0].name} { ...F0 } } ${fragments.join(' ')}`;
  }
}

/** A hostile document; when it must be refused, what the refusal says; when it is within a limit, what it must not say. */
interface Case {
  doc: Gql;
  refused?: RegExp;
  spared?: RegExp;
}

const operations = () => `query A { ${r.pick(listRoots()).name}(pagination: {limit: 1}) { __typename } } query B { __typename }`;

/** Hostile documents, one kind drawn at random. */
function hostileCase(): Case {
  const root = r.pick(listRoots());
  const type = typeOf(root).name;
  return r.pick<() => Case>([
    () => ({ doc: { query: chain(MAX_DEPTH + 1 + r.int(15), 1) }, refused: /exceeds maximum operation depth of 10/ }),
    () => ({ doc: { query: chain(1 + r.int(MAX_DEPTH), 1) }, spared: /maximum operation depth/ }),
    () => ({ doc: { query: `{ ${Array.from({ length: MAX_ALIASES + 1 + r.int(300) }, (_, i) => `a${i}: ${r.pick(['__typename', `${root.name}(pagination: {limit: 1}) { id }`])}`).join(' ')} }` }, refused: /aliases found/ }),
    () => ({ doc: { query: `{ ${Array.from({ length: 1 + r.int(MAX_ALIASES) }, (_, i) => `a${i}: __typename`).join(' ')} }` }, spared: /aliases found/ }),
    () => ({ doc: { query: chain(3, 100_000, true) }, refused: /GRAPHQL_MAX_COST/ }),
    () => ({ doc: { query: `{ ${root.name} { ...A } } fragment A on ${type} { ...B } fragment B on ${type} { id ...A }` }, refused: /Cannot spread fragment/ }),
    () => ({ doc: { query: `{ ${root.name} { ...A } } fragment A on ${type} { id ...A }` }, refused: /Cannot spread fragment/ }),
    // A fragment bomb: each spreads the one before twice (2^n fields once expanded).
    () => {
      const n = 10 + r.int(30);
      const fragments = Array.from({ length: n }, (_, i) => `fragment F${i + 1} on ${type} { ...F${i} ...F${i} }`).join(' ');
      return { doc: { query: `{ ${root.name}(pagination: {limit: 2}) { ...F${n} } } fragment F0 on ${type} { id __typename } ${fragments}` } };
    },
    // The same field thousands of times (field merging is quadratic), and more tokens than the parser takes.
    () => ({ doc: { query: `{ ${root.name}(pagination: {limit: 1}) { ${'id '.repeat(500 + r.int(15_000))} } }` } }),
    () => ({ doc: { query: `{ ${'__typename '.repeat(25_000)} }` }, refused: /token/i }),
    () => ({ doc: { query: `{ ${root.name}(filters: {id: {exact: "${'9'.repeat(r.pick([20, 100_000, 3_000_000]))}"}}) { id } }` } }),
    // A tree node filter (`region_id: {id, match_type}`) with ids beyond 32 bits.
    () => {
      const [list, key] = r.pick(treeFilters());
      return { doc: { query: `{ ${list}(filters: {${key}: {id: ${json(r.pick(IDS))}, match_type: ${r.pick(['EXACT', 'DESCENDANTS', 'SELF_AND_DESCENDANTS', 'CHILDREN', 'SIBLINGS', 'ANCESTORS', 'PARENT'])}}}) { id } }` } };
    },
    () => ({ doc: { query: `query($v: String) { ${root.name}(filters: {q: $v}) { id } }`, variables: { v: 'x'.repeat(r.pick([1000, 1_000_000])) } } }),
    // Variables of the wrong type, missing, null for non-null, huge, nested where scalars are expected.
    () => ({ doc: { query: 'query($id: ID!) { site(id: $id) { id } }', variables: r.pick([{}, { id: null }, { id: r.pick(WRONG.filter((w) => w !== null && typeof w !== 'string' && typeof w !== 'number')) }]) }, refused: /./ }),
    () => ({ doc: { query: `query($p: OffsetPaginationInput) { ${root.name}(pagination: $p) { id } }`, variables: { p: r.pick([{ limit: 'x' }, { limit: 1e20 }, { limit: 2147483648 }, { offset: [1] }, { limit: { a: 1 } }, 'p']) } }, refused: /./ }),
    () => ({ doc: { query: `query($f: ${type.replace(/Type$/, '')}Filter) { ${root.name}(filters: $f) { id } }`, variables: { f: r.pick([{ nope: 1 }, { AND: 'x' }, { id: { exact: { a: 1 } } }, { id: { in_list: [{}] } }, [1], 'f', { OR: [[{}]] }]) } }, refused: /./ }),
    () => ({ doc: { query: `query($v: Int) { ${root.name}(pagination: {limit: $v}) { id } }`, variables: r.pick<unknown>([[], 'x', '[1]', 1, true]) }, refused: /Variables (must be a JSON object|are invalid JSON)/ }),
    // Operation names that match nothing, or several operations with none named.
    () => ({ doc: { query: operations(), operationName: r.pick(['C', '', 'a'.repeat(50_000), '\u0000']) }, refused: /./ }),
    () => ({ doc: { query: operations() }, refused: /Must provide operation name/ }),
    () => ({ doc: { query: '{ __typename }', operationName: r.pick([1, {}, [], true]) }, refused: /operationName must be a string/ }),
    // Introspection: past its depth, huge names, the whole schema many times.
    () => ({ doc: { query: '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }' }, refused: /introspection depth/i }),
    () => ({ doc: { query: `{ __type(name: ${json(r.pick(['SiteType', 'x'.repeat(100_000), '\u0000', '__Schema']))}) { name fields { name args { name type { name inputFields { name } } } } } }` } }),
    () => ({ doc: { query: `{ ${Array.from({ length: 2 + r.int(MAX_ALIASES + 4) }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }` } }),
    // Directives on everything, unknown and repeated.
    () => ({ doc: { query: `{ ${root.name}(pagination: {limit: 1}) @include(if: true) @skip(if: false) @nope { id @include(if: $x) } }` }, refused: /./ }),
  ])();
}

/** Bodies that are not GraphQL requests: malformed JSON, other content types, batches. */
function transportCase(): Sent {
  const query = `{ ${r.pick(listRoots()).name}(pagination: {limit: 1}) { id } }`;
  return r.pick<() => Sent>([
    () => ({ method: 'POST', path: '/graphql/', body: r.pick(['{', '{"query": ', 'null', '[]', '"query"', '1e999999', '{"query": null}', '{"query": 1}', '{"query": ""}', '\u0000', '\ufeff{"query":"{ __typename }"}', '{"query":"{ __typename }"} trailing', `{"query": ${json(query)}, "variables": "{nope"}`, `[${'['.repeat(5000)}${']'.repeat(5000)}]`]) }),
    () => ({ method: 'POST', path: '/graphql/', body: json(Array.from({ length: 1 + r.int(50) }, () => ({ query }))) }),
    () => ({ method: 'POST', path: '/graphql/', body: r.pick([query, `query=${encodeURIComponent(query)}`, json({ query })]), headers: { 'Content-Type': r.pick(['application/graphql', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/xml', '']) } }),
    () => ({ method: r.pick(['PUT', 'PATCH', 'DELETE', 'OPTIONS']), path: r.pick(['/graphql/', '/graphql']), body: r.chance(0.5) ? json({ query }) : undefined }),
    () => ({ method: 'HEAD', path: `/graphql/?${new URLSearchParams({ query })}` }),
    () => ({ method: 'GET', path: `/graphql/?${new URLSearchParams(r.pick<Record<string, string>>([{ query }, { query, variables: '{nope' }, { query: '' }, { query, variables: '[1]' }, { query, operationName: 'X' }, { variables: '{}' }]))}` }),
    () => ({ method: 'GET', path: `/graphql/?query=${encodeURIComponent(query)}&query=${encodeURIComponent('{ __typename }')}` }),
    () => ({ method: 'GET', path: `/graphql/?query=${'%7B'.repeat(3000)}` }),
    () => ({ method: 'POST', path: r.pick(['/graphql/x', '/graphql//', '/graphql/%00', '/graphql/..%2f']), body: json({ query }) }),
  ])();
}

// ---- Sending ------------------------------------------------------------------------------------------------------

/** A document sent by POST (or GET, when its URL is short), as JSON. */
function request(doc: Gql): Sent {
  const post: Sent = { method: 'POST', path: '/graphql/', body: json(doc) };
  // GET carries text only: an operationName of another type goes by POST.
  if ((doc.operationName !== undefined && typeof doc.operationName !== 'string') || !r.chance(0.2)) return post;
  const params = new URLSearchParams({ query: doc.query });
  if (doc.variables !== undefined) params.set('variables', json(doc.variables));
  if (typeof doc.operationName === 'string') params.set('operationName', doc.operationName);
  return params.toString().length < 6000 ? { method: 'GET', path: `/graphql/?${params}` } : post;
}

/**
 * Sends a GraphQL request; beyond the harness's checks, the answer must be 200 with `data` or 400 with `errors`, every
 * error with a message and none a masked server error (an exception the resolvers did not expect).
 */
async function gql(req: Sent, strict = true): Promise<Result | undefined> {
  const answer: Answer = await f.send(req);
  if (!answer.status) return undefined;
  const result = typeof answer.json === 'object' && answer.json !== null ? (answer.json as Result) : undefined;
  const problem = (why: string) => f.fail(req, why, answer);
  if (strict && answer.status !== 200 && answer.status !== 400) problem('neither 200 nor 400');
  if (answer.status === 200 && !(result && 'data' in result)) problem('200 without data');
  // A 400 of the pipeline before GraphQL (malformed JSON, a NUL in the query string) says why as the REST API's do.
  if (answer.status === 400 && !Array.isArray(result?.errors) && !(result && Object.keys(result).length)) problem('400 without errors');
  for (const error of result?.errors ?? []) {
    if (typeof error?.message !== 'string' || !error.message) problem('an error without a message');
    else if (error.message === 'Server error') problem('a masked server error (the log has the cause)');
  }
  return result;
}

describe(`graphql fuzz (seed ${f.seed})`, () => {
  it('random queries over the schema answer data or errors, never a server error', async () => {
    expect(roots.length).toBeGreaterThan(100);
    let tried = 0;
    let executed = 0;
    let clean = 0;
    let refusedText = 0;
    await f.waves(600, async () => {
      const wrong = r.chance(0.3);
      const { invalidText, ...doc } = new QueryBuilder(wrong).document(r.pick(roots));
      const req = request(doc);
      const result = await gql(req);
      if (wrong) return;
      // Invalid text is refused before anything runs, naming what is wrong with it.
      if (invalidText) {
        refusedText++;
        const messages = (result?.errors ?? []).map((e) => String(e.message)).join(' | ');
        if (result && !/Null characters|Lone surrogates|Invalid Unicode escape/.test(messages)) f.fail(req, `invalid text not refused: ${messages || 'no error'}`, { status: 200, text: json(result) });
        return;
      }
      tried++;
      if (result && 'data' in result) executed++;
      if (result && 'data' in result && !result.errors) clean++;
    });
    f.verify();
    // The generator must reach the resolvers: well-typed queries pass validation, and many run without an error.
    expect(refusedText, 'queries with invalid text').toBeGreaterThan(0);
    expect(executed / tried, `${executed} of ${tried} well-typed queries executed`).toBeGreaterThan(0.9);
    expect(clean / tried, `${clean} of ${tried} well-typed queries answered without errors`).toBeGreaterThan(0.15);
  }, 300_000);

  it('hostile documents are refused (or answered) with errors, never a server error or a hang', async () => {
    await f.waves(300, async () => {
      const { doc, refused, spared } = hostileCase();
      const req = request(doc);
      const result = await gql(req, !req.body || req.body.length < f.t.server.settings.MAX_BODY_SIZE);
      if (!result) return;
      // Refused with an error saying so, or (refused before GraphQL: a NUL in the query string) as the REST API refuses.
      const messages = result.errors ? result.errors.map((e) => String(e.message)) : [json(result)];
      if (refused && !messages.some((m) => refused.test(m))) f.fail(req, `not refused with ${refused}: ${json(messages).slice(0, 200)}`, { status: 0, text: '' });
      if (spared && result.errors?.some((e) => spared.test(String(e.message)))) f.fail(req, `refused within the limit: ${json(messages).slice(0, 200)}`, { status: 0, text: '' });
    });
    await f.waves(100, () => gql(transportCase(), false));
    f.verify();
  }, 300_000);

  it('refuses every mutation and subscription, and nothing changes', async () => {
    await f.waves(60, async () => {
      const name = r.pick(roots).name.replace(/_list$/, '');
      const operation = r.pick([
        `mutation { ${name}_delete(id: "1") { id } }`,
        `mutation { ${name}_create(data: {name: "x"}) { id } }`,
        'mutation { __typename }',
        'subscription { __typename }',
        `mutation M { ${name}_update(id: "1", data: {name: "x"}) { id } } query Q { __typename }`,
      ]);
      const doc = { query: operation, operationName: operation.includes('mutation M') ? 'M' : undefined };
      const req = request(doc);
      const result = await gql(req);
      if (result && !result.errors?.length) f.fail(req, 'a mutation was not refused', { status: 200, text: json(result) });
    });
    // Nothing the queries, the hostile documents or the mutations sent changed any list.
    expect(await f.snapshot(lists)).toBe(counts);
    f.verify();
  }, 120_000);

  it('deeply nested filter arguments are answered quickly, without a server error', async () => {
    // The depth limit counts selections; filters nest in arguments (AND, NOT, OR, relations), up to the parser's token
    // limit. One at a time, each within 3 s (a few hundred levels must not cost seconds of the server's time).
    for (const levels of [100, 500, 3000]) {
      for (const [open, close] of [['{AND: [', ']}'], ['{NOT: [', ']}'], ['{OR: [', ']}'], ['{parent: ', '}']]) {
        const req = request({ query: `{ region_list(filters: ${open.repeat(levels)}{name: {exact: "x"}}${close.repeat(levels)}) { id } }` });
        const started = Date.now();
        await gql(req);
        if (Date.now() - started > 3000) f.fail(req, `took ${Date.now() - started} ms (${levels} levels)`, { status: 0, text: '' });
      }
    }
    f.verify();
  }, 300_000);
});
