import { describe, expect, it } from 'vitest';
import { getNamedType, isListType, isNonNullType, isObjectType, isUnionType, buildClientSchema, type GraphQLField, type GraphQLObjectType, type IntrospectionQuery, getIntrospectionQuery } from 'graphql';
import { seededServer } from '../helpers/budgets.js';
import { seedCabling } from '../helpers/seed-cabling.js';
import { seedCircuits } from '../helpers/seed-circuits.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedTenancy } from '../helpers/seed.js';
import { seedVirtualization } from '../helpers/seed-virtualization.js';
import type { TestServer } from '../helpers/server.js';
import { graphql } from './helpers.js';

const ROWS = 1000;
const server = seededServer(async (db, patchbay) => {
  await seedTenancy(db, ROWS);
  await seedDcim(db, ROWS);
  await seedCabling(db, patchbay, ROWS);
  await seedIpam(db, ROWS);
  await seedVirtualization(db, ROWS);
  await seedCircuits(db, ROWS);
  await db('extras_tag').insert({ name: 'Core', slug: 'core', color: 'ff0000', description: '', object_types: [], created: db.fn.now(), last_updated: db.fn.now() });
  await db.raw(`insert into extras_taggeditem (tag_id, object_type_id, object_id) select 1, (select id from core_objecttype where app_label = 'dcim' and model = 'site'), i from generate_series(1, ?) i`, [ROWS]);
});

const SIZES = [1, 50, ROWS];

/** Statements a query runs at each size of its pages; each answer must hold `size` rows at its root and no error. */
async function statements(t: TestServer, query: (size: number) => string, root: string): Promise<number[]> {
  const counts: number[] = [];
  for (const size of SIZES) {
    counts.push(
      await t.countQueries(async () => {
        const res = await graphql(t, query(size));
        expect(res.body.errors, JSON.stringify(res.body.errors)?.slice(0, 500)).toBeUndefined();
        expect(res.body.data[root]).toHaveLength(size);
      }),
    );
  }
  if (process.env.SHOW_QUERIES) console.log(root, counts);
  return counts;
}

/** Statements of a request that asks for nothing from the database: authentication's. */
const baseline = (t: TestServer) => t.countQueries(() => graphql(t, '{ __typename }'));

describe('GraphQL query budgets: at most one SQL statement per level, whatever the number of objects', () => {
  it('a three-level nested list: sites, their devices, their interfaces, their addresses', async () => {
    const t = server();
    const base = await baseline(t);
    const query = (extra: string) => (n: number) => `{ site_list(pagination: {limit: ${n}}) { id name devices { id name interfaces { id name ${extra} ip_addresses { id address } } } } }`;
    // Every field one PostgreSQL writes as JSON: one statement answers all levels.
    expect(await statements(t, query(''), 'site_list')).toEqual(SIZES.map(() => base + 1));
    // A field only its resolver answers (an enum): the sites and their devices in one statement (a list through a
    // foreign key reads with its root list), then one per level.
    expect(await statements(t, query('type'), 'site_list')).toEqual(SIZES.map(() => base + 3));
  });

  it('unions: the objects addresses are assigned to, and their devices', async () => {
    const t = server();
    const base = await baseline(t);
    const counts = await statements(
      t,
      (n) => `{ ip_address_list(pagination: {limit: ${n}}) { address assigned_object { __typename ... on InterfaceType { name device { name } } ... on VMInterfaceType { name } } } }`,
      'ip_address_list',
    );
    expect(counts).toEqual(SIZES.map(() => base + 3));
  });

  it('custom fields, tags and display', async () => {
    const t = server();
    const base = await baseline(t);
    const counts = await statements(t, (n) => `{ site_list(pagination: {limit: ${n}}) { display custom_fields tags { name } } }`, 'site_list');
    // The custom field data and the tags; the definitions are kept in memory.
    expect(counts).toEqual(SIZES.map(() => base + 2));
  });

  it('every model: its list with every field, flat in the page size', async () => {
    const t = server();
    const res = await graphql(t, getIntrospectionQuery());
    const schema = buildClientSchema(res.body.data as IntrospectionQuery);
    const selection = (type: GraphQLObjectType) =>
      Object.values(type.getFields())
        .map((f: GraphQLField<unknown, unknown>) => {
          const named = getNamedType(f.type);
          if (isUnionType(named)) return `${f.name} { __typename }`;
          if (isObjectType(named)) return `${f.name} { ${named.getFields().id ? 'id' : Object.keys(named.getFields())[0]} }`;
          return f.name;
        })
        .join(' ');
    const lists = Object.values(schema.getQueryType()!.getFields()).filter((f) => f.name.endsWith('_list'));
    expect(lists.length).toBeGreaterThan(90);
    const uneven: string[] = [];
    for (const list of lists) {
      const type = getNamedType(list.type) as GraphQLObjectType;
      expect(isListType(isNonNullType(list.type) ? list.type.ofType : list.type)).toBe(true);
      const counts: number[] = [];
      // From 50 objects on, a page holds every kind of related object (roots and children of trees, each model of a union).
      for (const size of [50, 200]) {
        counts.push(
          await t.countQueries(async () => {
            const answer = await graphql(t, `{ ${list.name}(pagination: {limit: ${size}}) { ${selection(type)} } }`);
            expect(answer.body.errors, `${list.name}: ${JSON.stringify(answer.body.errors)?.slice(0, 400)}`).toBeUndefined();
          }),
        );
      }
      if (counts[0] !== counts[1]) uneven.push(`${list.name} ${counts.join(' → ')}`);
    }
    expect(uneven).toEqual([]);
  });
});

describe('GraphQL limits, refused before any SQL runs', () => {
  it(`more than GRAPHQL_MAX_ALIASES aliases (10)`, async () => {
    const t = server();
    const base = await baseline(t);
    const query = `{ ${Array.from({ length: 11 }, (_, i) => `a${i}: site(id: "1") { id }`).join(' ')} }`;
    let answer: { status: number; body: { errors: { message: string }[] } } | undefined;
    expect(await t.countQueries(async () => (answer = await graphql(t, query)))).toBe(base);
    expect(answer!.status).toBe(400);
    expect(answer!.body.errors.map((e) => e.message)).toEqual(['11 aliases found. Allowed: 10']);
    expect((await graphql(t, `{ ${Array.from({ length: 10 }, (_, i) => `a${i}: site(id: "1") { id }`).join(' ')} }`)).status).toBe(200);
  });

  it('deeper than GRAPHQL_MAX_QUERY_DEPTH (10)', async () => {
    const t = server();
    const base = await baseline(t);
    const nest = (depth: number): string => (depth === 0 ? 'id' : `id parent { ${nest(depth - 1)} }`);
    let answer: { status: number; body: { errors: { message: string }[] } } | undefined;
    expect(await t.countQueries(async () => (answer = await graphql(t, `query Deep { region(id: "1") { ${nest(10)} } }`)))).toBe(base);
    expect(answer!.status).toBe(400);
    expect(answer!.body.errors[0].message).toBe("'Deep' exceeds maximum operation depth of 10");
    expect((await graphql(t, `query Deep { region(id: "1") { ${nest(9)} } }`)).status).toBe(200);
    // Fragments count where they are spread.
    const spread = await graphql(t, `query F { region(id: "1") { ...A } } fragment A on RegionType { parent { ${nest(10)} } }`);
    expect(spread.body.errors[0].message).toBe("'F' exceeds maximum operation depth of 10");
  });

  it('an estimated cost over GRAPHQL_MAX_COST: page sizes multiplied down the tree', async () => {
    const t = server();
    const base = await baseline(t);
    // 1000 sites × 20 devices × 20 interfaces × 20 addresses assumed: over ten million.
    const query = '{ site_list { devices { interfaces { ip_addresses { tags { name } } } } } }';
    let answer: { status: number; body: { errors: { message: string }[] } } | undefined;
    expect(await t.countQueries(async () => (answer = await graphql(t, query)))).toBe(base);
    expect(answer!.status).toBe(400);
    expect(answer!.body.errors[0].message).toMatch(/^This query may read \d+ objects, more than the 10000000 allowed \(GRAPHQL_MAX_COST\)/);
    // Smaller pages bring it under the limit.
    const paged = '{ site_list(pagination: {limit: 10}) { devices(pagination: {limit: 10}) { interfaces { ip_addresses { tags { name } } } } } }';
    expect((await graphql(t, paged)).status).toBe(200);
    // Limits given in variables count as well.
    const variable = await graphql(t, 'query($p: OffsetPaginationInput) { site_list(pagination: $p) { devices { interfaces { ip_addresses { tags { name } } } } } }', { variables: { p: { limit: 1000 } } });
    expect(variable.status).toBe(400);
  });
});
