import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildClientSchema, getIntrospectionQuery, getNamedType, isLeafType, isListType, isNonNullType, isObjectType,
  type GraphQLField, type GraphQLObjectType, type GraphQLSchema, type IntrospectionQuery,
} from 'graphql';
import { seedCircuits } from '../helpers/seed-circuits.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedTenancy } from '../helpers/seed.js';
import { seedVirtualization } from '../helpers/seed-virtualization.js';
import { EXAMPLE_PLUGIN, startServer, type TestServer } from '../helpers/server.js';
import { created, data } from './helpers.js';

/**
 * Queries PostgreSQL answers alone (its JSON is the response) against the resolvers answering the same query: a
 * field without SQL (`class_type`) sends a query to the resolvers, so each comparison is the same selection both
 * ways, value for value.
 */

let t: TestServer;
let schema: GraphQLSchema;
/** The fields of each type PostgreSQL answers, as found by asking each one on its own. */
const answerable = new Map<string, string[]>();

/** The raw answer of a query, as the admin. */
async function raw(query: string, variables?: unknown): Promise<string> {
  const res = await t.post('/graphql/', { query, variables });
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return res.text;
}

/** Whether PostgreSQL wrote the answer: its JSON spells an object's first key `{"key" : `, JSON.stringify `{"key":`. */
const bySql = (text: string) => /\{"\w+" : /.test(text);

/** A query's data both ways: PostgreSQL's, and the resolvers' (`class_type` added to each root list, then removed). */
async function bothWays(query: string, variables?: unknown): Promise<{ sql: unknown; resolvers: unknown; text: string }> {
  const text = await raw(query, variables);
  const body = JSON.parse(text) as { data: Record<string, Record<string, unknown>[]>; errors?: unknown };
  expect(body.errors).toBeUndefined();
  const viaResolvers = await raw(query.replace(/_list(\([^)]*\))? \{/g, (m) => `${m} class_type `), variables);
  expect(bySql(viaResolvers)).toBe(false);
  const resolved = JSON.parse(viaResolvers) as typeof body;
  for (const rows of Object.values(resolved.data)) for (const row of rows) delete row.class_type;
  return { sql: body.data, resolvers: resolved.data, text };
}

const roots = () => Object.values(schema.getQueryType()!.getFields()).filter((f) => f.name.endsWith('_list'));
const objectOf = (field: GraphQLField<unknown, unknown>) => getNamedType(field.type) as GraphQLObjectType;
/** Fields without arguments or with optional ones only. */
const plain = (field: GraphQLField<unknown, unknown>) => field.args.every((a) => !isNonNullType(a.type));

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  const db = t.server.db.knex;
  for (const seed of [seedTenancy, seedDcim, seedIpam, seedVirtualization, seedCircuits]) await seed(db, 6);
  // Text JSON must escape, and addresses PostgreSQL writes without their mask (hosts).
  await created(t, '/api/dcim/sites/', { name: 'Odd "quoted" \\ back\nslash é 😀 \u0001 \u007f', slug: 'odd', description: '\t</script>' });
  await created(t, '/api/ipam/ip-addresses/', [{ address: '10.9.9.9/32' }, { address: '2001:db8::1/128' }, { address: '2001:db8::2/64' }]);
  await created(t, '/api/ipam/prefixes/', [{ prefix: '2001:db8::/48' }, { prefix: '10.9.9.9/32' }]);
  await created(t, '/api/ipam/asns/', { asn: 4294967295, rir: (await created(t, '/api/ipam/rirs/', { name: 'RIR', slug: 'rir' })).id });
  schema = buildClientSchema((await data(t, getIntrospectionQuery())) as IntrospectionQuery);
  // Each leaf field of each listed type, on its own: PostgreSQL answers it or the resolvers do.
  for (const root of roots()) {
    const type = objectOf(root);
    const leaves = Object.values(type.getFields()).filter((f) => isLeafType(getNamedType(f.type)) && f.name !== 'class_type' && plain(f));
    const found = await Promise.all(leaves.map(async (f) => (bySql(await raw(`{ ${root.name}(pagination: {limit: 2}) { ${f.name} } }`)) ? f.name : undefined)));
    answerable.set(type.name, found.filter((name): name is string => name !== undefined));
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('GraphQL lists PostgreSQL answers alone', () => {
  it('answer every field with SQL as its resolver does, in every model', async () => {
    const fields = [...answerable.values()].flat();
    expect(fields.length).toBeGreaterThan(300);
    // Each kind with SQL: ids, text, whole numbers (big ones too), booleans, networks and addresses.
    expect(answerable.get('SiteType')).toEqual(expect.arrayContaining(['id', 'name', 'slug', 'description', 'facility', 'time_zone']));
    expect(answerable.get('InterfaceType')).toEqual(expect.arrayContaining(['mtu', 'enabled', 'mgmt_only', 'speed']));
    expect(answerable.get('ASNType')).toEqual(expect.arrayContaining(['asn']));
    expect(answerable.get('PrefixType')).toEqual(expect.arrayContaining(['prefix']));
    expect(answerable.get('IPAddressType')).toEqual(expect.arrayContaining(['address']));
    // Kinds without: datetimes (an offset to write), choices (a blank one's empty text), decimals (their places).
    for (const name of ['created', 'status', 'latitude']) expect(answerable.get('SiteType')).not.toContain(name);
    let compared = 0;
    for (const root of roots()) {
      const names = answerable.get(objectOf(root).name)!;
      if (!names.length) continue;
      const { sql, resolvers, text } = await bothWays(`{ ${root.name} { ${names.join(' ')} } }`);
      expect(bySql(text), root.name).toBe(true);
      expect(sql, root.name).toEqual(resolvers);
      compared += (sql as Record<string, unknown[]>)[root.name].length;
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('answer the lists of each object read through a column holding its id, as the resolvers do', async () => {
    let nested = 0;
    for (const root of roots()) {
      const type = objectOf(root);
      const own = answerable.get(type.name)!;
      if (!own.includes('id')) continue;
      for (const list of Object.values(type.getFields())) {
        const target = getNamedType(list.type);
        const inner = isObjectType(target) ? answerable.get(target.name) : undefined;
        if (!inner?.length || !isListType(isNonNullType(list.type) ? list.type.ofType : list.type)) continue;
        const query = `{ ${root.name} { id ${list.name} { ${inner.join(' ')} } } }`;
        const { sql, resolvers, text } = await bothWays(query);
        expect(sql, query).toEqual(resolvers);
        if (bySql(text)) nested++;
      }
    }
    // Sites' devices, devices' interfaces, VLANs' prefixes, …
    expect(nested).toBeGreaterThan(30);
  });

  it('apply filters, pages, aliases, fragments, variables and directives as the resolvers do', async () => {
    const query = `query ($n: Int, $skip: Boolean!) {
      a: site_list(filters: {name: {i_contains: "e"}}, pagination: {limit: $n, offset: 1}) { ...Named devices(pagination: {limit: 2}) { name serial @skip(if: $skip) id } }
      b: device_list(filters: {OR: {name: {starts_with: "dev"}}, serial: {exact: ""}}) { id name interfaces(filters: {enabled: true}) { ... on InterfaceType { id name mtu } } }
      c: vlan_list(pagination: {start: 2, limit: 3}) { vid name __typename prefixes { prefix __typename } }
    }
    fragment Named on SiteType { id name }`;
    const { sql, resolvers, text } = await bothWays(query, { n: 3, skip: true });
    expect(bySql(text)).toBe(true);
    expect(sql).toEqual(resolvers);
    expect((sql as Record<string, unknown[]>).a.length).toBeGreaterThan(0);
  });

  it('leave to the resolvers what PostgreSQL cannot answer alone, answering the same', async () => {
    for (const query of [
      '{ site_list { name status } }',
      '{ site_list { name tenant { name } } }',
      '{ site_list { name tags { name } } }',
      '{ __typename site_list { name } }',
      '{ site_list { name } site(id: "1") { name } }',
    ]) {
      const text = await raw(query);
      expect(bySql(text), query).toBe(false);
      expect(JSON.parse(text).errors, query).toBeUndefined();
    }
  });
});
