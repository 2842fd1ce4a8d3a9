import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefKeys, readKeys } from '../../kernel/model/render.js';
import type { PatchbayServer } from '../../kernel/server.js';
import { startServer, type TestServer } from './server.js';

interface Reference {
  path: string;
  /** Null where NetBox has no brief form. */
  brief: string[] | null;
  fields: string[];
  filters: string[];
}

/** One app's models as the NetBox 4.4 reference lists them (extracted from ../shared/reference/models.json). */
export function referenceModels(app: string): Record<string, Reference> {
  return (JSON.parse(readFileSync(new URL(`../fixtures/${app}-reference.json`, import.meta.url), 'utf8')) as { models: Record<string, Reference> }).models;
}

/**
 * Compares a server's declarations with the reference: every model, field, brief field and filter. `pending`
 * names what later work brings, by name (`cable`: on every model) or for one model (`ipam.prefix.scope`); what is
 * missing and not pending, what is pending but already there, and the brief forms that differ (pending names left
 * out) come back for the test to assert empty.
 */
export function compareWithReference(server: PatchbayServer, app: string, pending: ReadonlySet<string>) {
  const missing: string[] = [];
  const early = new Set<string>();
  const briefs: string[] = [];
  const check = (key: string, name: string, present: boolean) => {
    const qualified = `${key}.${name}`;
    const waiting = pending.has(name) || pending.has(qualified);
    if (!present && !waiting) missing.push(`${key}: ${name}`);
    if (present && waiting) early.add(pending.has(qualified) ? qualified : name);
  };
  for (const [key, ref] of Object.entries(referenceModels(app))) {
    const model = server.registry.find(key);
    check(key, key, Boolean(model));
    if (!model) continue;
    const keys = new Set(server.registry.outputFields(model, 'full').flatMap((f) => readKeys(f, server.registry)));
    const brief = briefKeys(model, server.registry);
    const filters = server.filters.of(model);
    // `changelog_message` is write-only: every change-logged write accepts it (tested with the change log).
    for (const name of ref.fields) if (name !== 'changelog_message') check(key, name, keys.has(name));
    const expected = ref.brief?.filter((name) => !pending.has(name) && !pending.has(`${key}.${name}`));
    if (expected && JSON.stringify(brief) !== JSON.stringify(expected)) briefs.push(`${key}: ${JSON.stringify(brief)} vs ${JSON.stringify(expected)}`);
    // `mask_length__gte` is the `gte` lookup of `mask_length`.
    const hasFilter = (name: string) => {
      if (filters.has(name)) return true;
      const split = name.lastIndexOf('__');
      return split > 0 && Boolean(filters.get(name.slice(0, split))?.suffixes.includes(name.slice(split + 2)));
    };
    for (const name of ref.filters) check(key, name, hasFilter(name));
  }
  return { missing, early: [...early], briefs };
}

/**
 * The test of one app against the reference: `pending` lists, by what brings them, the names the reference has
 * that the app does not have yet; a listed name the server already has fails, so the lists only shrink.
 */
export function referenceSuite(app: string, pending: Record<string, string[]>): void {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer();
  });
  afterAll(async () => {
    await t?.close();
  });
  describe(`${app} against the NetBox 4.4 reference`, () => {
    it('has every model, brief field, field and filter, but those still to come', () => {
      expect(compareWithReference(t.server, app, new Set(Object.values(pending).flat()))).toEqual({ missing: [], early: [], briefs: [] });
    });
  });
}
