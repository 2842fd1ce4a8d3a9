import { buildSchema, execute, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { QueryRunner, compilable } from '../../kernel/graphql/execution.js';
import { DocumentChecker } from '../../kernel/graphql/documents.js';
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

describe('the document checker', () => {
  const limits = { maxAliases: 10, maxDepth: 10, maxCost: 10_000, rootListSize: 1000, assumedListSize: 20 };

  it('keeps its verdict on a text that declares no variables, and still bounds the variables sent with it', () => {
    const checker = new DocumentChecker(schema, limits);
    const plain = '{ site_list { id } }';
    const first = checker.check(plain, {});
    expect('document' in first).toBe(true);
    expect(checker.check(plain, {})).toBe(first);
    const refused = checker.check('{ site_list { nope } }', {});
    expect('errors' in refused && refused.errors[0].message).toContain('Cannot query field "nope"');
    expect(checker.check('{ site_list { nope } }', {})).toBe(refused);
    let deep: unknown = 1;
    for (let i = 0; i < 30; i++) deep = [deep];
    expect(checker.check(plain, { v: deep })).toEqual({ message: 'Variables may nest at most 20 levels.' });
    // A text with variables is checked again with each request's values.
    const declaring = 'query($limit: Int) { site_list(pagination: {limit: $limit}) { id } }';
    const once = checker.check(declaring, { limit: 1 });
    expect('document' in once).toBe(true);
    expect(checker.check(declaring, { limit: 1 })).not.toBe(once);
    expect(checker.check('{ site_list(filters: {name: {exact: "a\\u0000"}}) { id } }', {})).toHaveProperty('message');
  });
});
