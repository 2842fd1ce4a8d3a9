import { expect } from 'vitest';
import type { Body, Reply, TestServer } from '../helpers/server.js';

/** A GraphQL POST to `/graphql/`, as the admin unless another token is given. */
export function graphql(t: TestServer, query: string, options: { variables?: unknown; token?: string | null; path?: string } = {}): Promise<Reply> {
  return t.post(options.path ?? '/graphql/', { query, variables: options.variables }, { token: options.token });
}

/** The `data` of a query that must answer without errors. */
export async function data(t: TestServer, query: string, options: { variables?: unknown; token?: string | null } = {}): Promise<Body> {
  const res = await graphql(t, query, options);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The messages of a query's errors. */
export async function errors(t: TestServer, query: string, options: { variables?: unknown; token?: string | null } = {}): Promise<string[]> {
  const res = await graphql(t, query, options);
  expect(res.status).toBeLessThan(500);
  expect(res.body.errors, JSON.stringify(res.body)).toBeDefined();
  return res.body.errors.map((e: { message: string }) => e.message);
}

/** Objects created through the REST API as the admin; each must succeed. */
export async function created(t: TestServer, path: string, body: unknown): Promise<Body> {
  const res = await t.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
