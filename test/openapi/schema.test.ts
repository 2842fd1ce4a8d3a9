import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import createClient from 'openapi-fetch';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { SEEDED } from '../helpers/crud.js';
import { seedCables } from '../helpers/seed-cabling.js';
import { seedCircuits } from '../helpers/seed-circuits.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedVirtualization } from '../helpers/seed-virtualization.js';
import { seedTenancy } from '../helpers/seed.js';
import { EXAMPLE_PLUGIN, startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
let document: Body;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);

/** The validator of a component (`#/components/schemas/Interface`), compiled once. */
function schemaOf(ref: string): ValidateFunction {
  return ajv.getSchema(`doc${ref}`)!;
}

/** OpenAPI 3.0's `nullable` beside `allOf` or on an untyped value, as JSON Schema (which Ajv reads) says it. */
function asJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, asJsonSchema(v)]));
  if (nullable !== true) return converted;
  return rest.type ? { ...converted, nullable: true } : { anyOf: [converted, { type: 'null' }] };
}

beforeAll(async () => {
  // With the example third-party plugin: its models and routes are served, so listed, like the built-in apps'.
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  const db = t.server.db.knex;
  await seedTenancy(db, SEEDED);
  await seedDcim(db, SEEDED);
  await seedIpam(db, SEEDED);
  await seedVirtualization(db, SEEDED);
  await seedCircuits(db, SEEDED);
  await seedCables(db, 'dcim.interface', 'dcim.frontport', 'select i as a_id, i as b_id from generate_series(1, 3) i');
  document = (await t.get('/api/schema/?format=json')).body;
  ajv.addSchema({ components: asJsonSchema(document.components) }, 'doc');
});
afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI schema', () => {
  it('is served as YAML by default and as JSON on request, the same document', async () => {
    const yaml = await t.request('GET', '/api/schema/', { headers: { Accept: '*/*' } });
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/vnd\.oai\.openapi/);
    expect(load(yaml.text)).toEqual(document);
    const json = await t.request('GET', '/api/schema/', { headers: { Accept: 'application/json' } });
    expect(json.body).toEqual(document);
    expect(document.openapi).toBe('3.0.3');
    // Compressed for clients that take gzip (the fetch here unpacks it): some 120 kB instead of 2.7 MB.
    const gzipped = await t.request('GET', '/api/schema/?format=json', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.body).toEqual(document);
    const plain = await t.request('GET', '/api/schema/?format=json', { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.body).toEqual(document);
  });

  it('has Swagger UI and ReDoc pages behind the login, on public files of the local packages', async () => {
    const html = { Accept: 'text/html' };
    for (const page of ['/api/schema/swagger-ui/', '/api/schema/redoc/?app=tenancy&part=1']) {
      const shown = await t.request('GET', page, { headers: html });
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-security-policy')).toContain("default-src 'self'");
      // Everything the page loads is on this server.
      const sources = [...shown.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) {
        expect(source).toMatch(/^\/static\//);
        const file = await t.request('GET', source, { token: null });
        expect(file.status, source).toBe(200);
        expect(file.text.length).toBeGreaterThan(100);
      }
      // LOGIN_REQUIRED: a browser without a session is sent to log in, an API client is refused.
      const anonymous = await t.request('GET', page, { token: null, headers: html });
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get('location')).toBe(`/login/?next=${encodeURIComponent(page)}`);
      expect((await t.request('GET', page, { token: null })).status).toBe(403);
    }
    const redoc = await t.request('GET', '/static/redoc/redoc.standalone.js', { headers: { 'Accept-Encoding': 'identity' } });
    expect(redoc.text).not.toContain('cdn.redoc.ly');
    // Scripts gzipped for browsers that take it (940 kB → some 290 kB): the same script.
    const gzipped = await t.request('GET', '/static/redoc/redoc.standalone.js', { headers: { 'Accept-Encoding': 'gzip, deflate' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.text).toBe(redoc.text);
    // Only what the pages load: not the packages' demo pages.
    for (const other of ['/static/swagger-ui/index.html', '/static/swagger-ui/swagger-initializer.js', '/static/redoc/redoc.lib.js']) {
      expect((await t.request('GET', other, { token: null })).status, other).toBe(404);
    }
  });

  it('is served by app in parts, for ReDoc: together every path, each part valid with the components it reaches', async () => {
    const index = await t.request('GET', '/api/schema/redoc/', { headers: { Accept: 'text/html' } });
    const parts = [...index.text.matchAll(/href="\/api\/schema\/redoc\/\?app=([^&"]+)&amp;part=(\d+)"/g)].map((m) => ({ app: decodeURIComponent(m[1]), part: m[2] }));
    expect(parts.length).toBeGreaterThan(20);
    expect(parts).toEqual(expect.arrayContaining([{ app: 'tenancy', part: '1' }, { app: 'dcim', part: '1' }, { app: 'plugins/maintenance', part: '1' }]));
    const seen: string[] = [];
    for (const { app, part } of parts) {
      const res = await t.request('GET', `/api/schema/?format=json&app=${encodeURIComponent(app)}&part=${part}`);
      expect(res.status).toBe(200);
      const paths = Object.keys(res.body.paths);
      expect(paths.length).toBeGreaterThan(0);
      seen.push(...paths);
      if (['tenancy', 'dcim', 'plugins/maintenance'].includes(app) && part === '1') {
        // Valid, so every reference it holds resolves; and smaller than the whole.
        const result = await new Validator().validate(structuredClone(res.body));
        expect(result.errors ?? [], app).toEqual([]);
        expect(Object.keys(res.body.components.schemas).length).toBeLessThan(Object.keys(document.components.schemas).length);
      }
    }
    expect(seen.sort()).toEqual(Object.keys(document.paths).filter((p) => !p.startsWith('/api/schema/')).sort());
    expect((await t.request('GET', '/api/schema/?app=nope')).status).toBe(400);
    expect((await t.request('GET', '/api/schema/?app=tenancy&part=9')).body).toEqual({ part: ['9 is not a part of tenancy.'] });
  });

  it('passes a strict OpenAPI validator', async () => {
    // The validator checks against the OpenAPI 3.0 JSON Schema in Ajv's strict mode (its default).
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every filter of the device list with its lookups, as nb_inventory reads them', () => {
    const names = (document.paths['/api/dcim/devices/'].get.parameters as Body[]).map((p) => p.name);
    for (const name of ['site', 'site_id', 'role', 'tenant_group', 'status', 'status__n', 'name__ic', 'tag', 'q', 'limit', 'offset', 'brief', 'cluster_id', 'has_primary_ip']) {
      expect(names, name).toContain(name);
    }
    const status = (document.paths['/api/dcim/devices/'].get.parameters as Body[]).find((p) => p.name === 'status');
    expect(status.schema.items.enum).toContain('active');
    expect((document.paths['/api/dcim/interfaces/'].get.parameters as Body[]).find((p) => p.name === 'cabled').schema).toEqual({ type: 'boolean' });
  });

  it('describes what each list and detail endpoint answers, plain and brief', async () => {
    const failures: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Body>)) {
      const page = item.get?.responses['200'].content?.['application/json']?.schema?.$ref as string | undefined;
      if (!page?.includes('/Paginated')) continue;
      const validate = schemaOf(page);
      for (const query of ['', '?brief=1']) {
        const res = await t.get(`${path}${query}`);
        if (res.status !== 200) failures.push(`${path}${query}: HTTP ${res.status}`);
        else if (!validate(res.body)) failures.push(`${path}${query}: ${ajv.errorsText(validate.errors?.slice(0, 3))}`);
      }
      const detail = document.paths[`${path}{id}/`];
      const first = (await t.get(`${path}?limit=1`)).body.results?.[0];
      if (detail && first) {
        const one = schemaOf(detail.get.responses['200'].content['application/json'].schema.$ref);
        const res = await t.get(`${path}${first.id}/`);
        if (!one(res.body)) failures.push(`${path}${first.id}/: ${ajv.errorsText(one.errors?.slice(0, 3))}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('accepts, as each model\'s write schema, the copy of a stored object the CRUD suites POST', async () => {
    const failures: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Body>)) {
      if (path.includes('{') || !item.post) continue;
      const first = (await t.get(`${path}?limit=1`)).body.results?.[0] as Body | undefined;
      if (!first) continue;
      const request = item.post.requestBody.content['application/json'].schema.oneOf[0].$ref as string;
      const properties = Object.keys(document.components.schemas[request.split('/').pop()!].properties);
      // As the CRUD suites copy an object: related objects by id, choices by value, the rest as read.
      const id = (v: Body) => (v && typeof v === 'object' && 'id' in v ? v.id : v && typeof v === 'object' && 'value' in v && 'label' in v ? v.value : v);
      const body = Object.fromEntries(properties.filter((k) => k in first).map((k) => [k, Array.isArray(first[k]) ? first[k].map(id) : id(first[k])]));
      // What is written but never read back (a user's password) the copy gives anew.
      if ('password' in document.components.schemas[request.split('/').pop()!].properties) body.password = 'A-new-passw0rd!';
      const validate = schemaOf(request);
      if (!validate(body)) failures.push(`${path}: ${ajv.errorsText(validate.errors?.slice(0, 3))}`);
    }
    expect(failures).toEqual([]);
  });

  it('describes each field with the help text OPTIONS shows for it', async () => {
    let described = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, Body>)) {
      // Model lists: their create takes one object or a list.
      const create = item.post?.requestBody?.content['application/json'].schema.oneOf?.[0].$ref as string | undefined;
      if (path.includes('{') || !create) continue;
      const request = document.components.schemas[create.split('/').pop()!];
      const options = (await t.request('OPTIONS', path)).body.actions.POST as Record<string, Body>;
      for (const [key, meta] of Object.entries(options)) {
        if (!(key in request.properties)) continue;
        expect(request.properties[key].description, `${path} ${key}`).toBe(meta.help_text);
        if (meta.help_text) described++;
      }
    }
    expect(document.components.schemas.Site.properties.facility.description).toBe('Local facility ID or description');
    expect(described).toBeGreaterThanOrEqual(9);
  });

  it('lists every route the server serves under /api/, and nothing it does not serve', async () => {
    // The routes express holds, walked as it matches them: mounted routers below their mount paths.
    interface Layer { route?: { path: string; methods: Record<string, boolean> }; handle: { stack?: Layer[] }; rawPath?: string }
    const served: string[] = [];
    const walk = (stack: Layer[], prefix: string) => {
      for (const layer of stack) {
        if (layer.route) {
          const path = `${prefix}${layer.route.path}`.replace(/\/\//g, '/').replace(/:(\w+)/g, '{$1}');
          for (const method of Object.keys(layer.route.methods).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))) served.push(`${method} ${path}`);
        } else if (layer.handle.stack) {
          walk(layer.handle.stack, `${prefix}${typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : ''}`);
        }
      }
    };
    walk((t.server.app as unknown as { router: { stack: Layer[] } }).router.stack, '');
    const api = served.filter((r) => r.split(' ')[1].startsWith('/api/'));
    const documented = Object.entries(document.paths as Record<string, Body>).flatMap(([path, item]) =>
      Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)).map((m) => `${m} ${path}`));
    expect(api.length).toBeGreaterThan(500);
    expect(document.paths['/api/plugins/maintenance/upcoming/'].get.summary).toBe('Windows starting within the horizon, soonest first');
    expect(document.paths['/api/plugins/maintenance/windows/'].get.tags).toEqual(['maintenance']);
    expect(document.paths['/api/users/tokens/provision/'].post.security).toEqual([{}]);
    expect(api.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((r) => !api.includes(r))).toEqual([]);

    // And each path answers something else than 404 (an object of the list for `{id}`).
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Body>)) {
      let concrete = path;
      for (const key of ['id', 'name'].filter((k) => path.includes(`{${k}}`))) {
        // The first of the list: an object by id; a background queue or worker by name, a task by its id.
        const list = path.slice(0, path.indexOf(`{${key}}`));
        const first = document.paths[list] ? (await t.get(`${list}?limit=1`)).body.results?.[0] : { id: 1 };
        const value = first?.[key] ?? first?.id;
        if (value === undefined) break;
        concrete = path.replace(`{${key}}`, encodeURIComponent(String(value)));
      }
      if (concrete.includes('{')) continue;
      const method = item.get ? 'GET' : 'POST';
      const res = await t.request(method, concrete, method === 'POST' ? { body: {} } : {});
      if (res.status === 404) missing.push(`${method} ${concrete}`);
    }
    expect(missing).toEqual([]);
  });

  it('generates a typed client that type-checks strictly against calls, which then work', async () => {
    const folder = join(dirname(fileURLToPath(import.meta.url)), 'typed-client');
    writeFileSync(join(folder, 'schema.d.ts'), astToString(await openapiTS(structuredClone(document) as OpenAPI3)));
    const program = ts.createProgram([join(folder, 'calls.ts')], {
      strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [],
    });
    // Every call compiles, and every call the document refuses is an error (an unused `@ts-expect-error` is one).
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName.split('/').pop()}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(problems).toEqual([]);

    // The same calls, run (the module is loaded by path so that the project's type-check, which has no generated types, skips it).
    const { calls } = (await import(pathToFileURL(join(folder, 'calls.ts')).href)) as { calls: (client: ReturnType<typeof createClient>) => Promise<unknown> };
    const results = await calls(createClient({ baseUrl: t.base, headers: { Authorization: `Token ${t.admin.token}` } }));
    const expected = (await t.get('/api/dcim/devices/?status=active&status=planned&name__ic=dev&limit=50')).body.results.map((d: Body) => d.name);
    expect(expected.length).toBeGreaterThan(0);
    expect(results).toEqual({
      deviceNames: expected, tenantId: expect.any(Number), tenantName: 'Typed Client/Typed Client', description: 'Written by a generated client', siteFacility: 'Hall 2',
    });
    // openapi-typescript and a strict tsc over the whole document: 17 s on an idle machine, twice that beside other work.
  }, 90_000);
});
