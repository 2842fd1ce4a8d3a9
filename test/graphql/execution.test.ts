import { buildSchema, execute, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { QueryRunner, compilable } from '../../kernel/graphql/execution.js';
import type { GraphContext } from '../../kernel/graphql/context.js';

/** A filter type as the schema has them: lookups, and filters of related types that lead back to it. */
const schema = buildSchema(`
  input Lookup { exact: String in_list: [String!] i_contains: String starts_with: String is_null: Boolean }
  input SiteFilter { id: Lookup name: Lookup slug: Lookup status: Lookup region: RegionFilter devices: DeviceFilter AND: SiteFilter OR: SiteFilter NOT: SiteFilter }
  input RegionFilter { id: Lookup name: Lookup sites: SiteFilter parent: RegionFilter }
  input DeviceFilter { id: Lookup name: Lookup site: SiteFilter }
  input Page { offset: Int limit: Int }
  type Site { id: ID! name: String! }
  type Query { site_list(filters: SiteFilter, pagination: Page): [Site!]! }
`);
const sites = Array.from({ length: 3 }, (_, i) => ({ id: i + 1, name: `Site ${i + 1}` }));
schema.getQueryType()!.getFields().site_list.resolve = (_: unknown, args: { pagination?: { limit?: number } }) => sites.slice(0, args.pagination?.limit ?? sites.length);

describe('the query runner', () => {
  it('compiles operations whose variables are plain, and leaves those of filter types to the executor', () => {
    const operation = (text: string) => compilable(schema, parse(text), undefined);
    expect(operation('{ site_list { id } }')).toBe(true);
    expect(operation('query($limit: Int, $names: [String!]) { site_list(pagination: {limit: $limit}, filters: {name: {in_list: $names}}) { id } }')).toBe(true);
    expect(operation('query($page: Page) { site_list(pagination: $page) { id } }')).toBe(true);
    // Its coercion would be written out for every path through the related filters: thousands of fields.
    expect(operation('query($f: SiteFilter) { site_list(filters: $f) { id } }')).toBe(false);
    expect(operation('query($l: Lookup, $f: RegionFilter) { site_list { id } }')).toBe(false);
  });

  it('answers as GraphQL executes, compiled or not, the same text again from the compiled form', async () => {
    const runner = new QueryRunner(schema);
    const context = {} as GraphContext;
    for (const [text, variables] of [
      ['query($limit: Int) { site_list(pagination: {limit: $limit}) { id name } }', { limit: 2 }],
      ['query($f: SiteFilter) { site_list(filters: $f) { id } }', { f: { name: { exact: 'x' } } }],
      ['query($limit: Int!) { site_list(pagination: {limit: $limit}) { id } }', {}],
      ['query A { site_list { id } } query B { site_list { name } }', {}],
    ] as const) {
      const document = parse(text);
      const expected = JSON.parse(JSON.stringify(await execute({ schema, document, variableValues: variables, operationName: text.includes('query B') ? 'B' : undefined })));
      for (let run = 0; run < 2; run++) {
        const answer = await runner.run(text, document, text.includes('query B') ? 'B' : undefined, variables, context);
        expect(JSON.parse(JSON.stringify(answer))).toEqual(expected);
      }
    }
  });
});
