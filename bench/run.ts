import { randomBytes } from 'node:crypto';
import { keyDigest } from '../kernel/auth/tokens.js';
import { createServer } from '../kernel/server.js';
import { builtinPlugins } from '../plugins/index.js';
import { bulkCreateTenants, filteredTenants, startBaseline, tenantList, type TenantBody } from './baseline.js';
import { createCables, interfaceTrace, type CableBody } from './cabling-baseline.js';
import { cablingFixtures, freeInterfaces, type Api } from './cabling-fixtures.js';
import { deviceBriefList, deviceList, interfaceList } from './dcim-baseline.js';
import { availableIps, ipAddressBriefList, ipAddressList, prefixBriefList, prefixList } from './ipam-baseline.js';
import { dcimDemoSteps } from '../plugins/dcim/demo/steps.js';
import { ipamDemoSteps } from '../plugins/ipam/demo/steps.js';
import { extrasDemoSteps } from '../plugins/extras/demo.js';
import { renderLeafBaseline } from './render-baseline.js';
import { eventsBench } from './events.js';
import { isDeepStrictEqual } from 'node:util';
import { startPostgres } from '../testing/postgres.js';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { measureCount, measureInTurns, measureSides, report, requestTo, summary } from './harness.js';
import { processesBench } from './processes.js';
import { DEVICE_INTERFACES, VLAN_PREFIXES, deviceInterfacesRest, deviceInterfacesSql, vlanPrefixesRest, vlanPrefixesSql } from './graphql-baseline.js';
import type { Db } from '../kernel/base/types.js';
import { knex, type Knex } from '@mikro-orm/knex';

/**
 * `npm run bench`: Patchbay against hand-written SQL in the same process and the same run, reported as
 * requests/s and as a ratio. BENCH_SECONDS sets the length of each measurement (default 5).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// A throwaway embedded PostgreSQL, or the server named by TEST_DATABASE_URL.
const database = await startPostgres();
const server = await createServer({
  builtins: builtinPlugins,
  env: { PATCHBAY_CONFIG: '' },
  settings: { DATABASE_URL: database.adminUrl, PORT: 0, LOG_LEVEL: 'error', SECRET_KEY: 'bench' },
});
// The baselines' own pool: Patchbay's connection settings and value parsing, but every statement parsed and planned
// (node-postgres's default), as a hand-written server's would be; Patchbay prepares the statements it repeats.
const plain = knex({
  client: 'pg',
  connection: { ...(server.db.knex.client as { connectionSettings: Knex.StaticConnectionConfig }).connectionSettings, connectionString: database.adminUrl },
  pool: { min: 0, max: 10 },
});
try {
  const base = await server.listen();
  const db = server.db.knex;
  // Patchbay's side authenticates like a real client: a superuser's token (read once per TOKEN_CACHE_SECONDS).
  const key = randomBytes(20).toString('hex');
  const [admin] = await db('users_user').insert({ username: 'bench', password: '!', is_superuser: true }).returning('id');
  await db('users_token').insert({ user_id: admin.id, key, key_digest: keyDigest(key), last_used: db.fn.now() });
  const auth = { Authorization: `Token ${key}` };
  /** The bench's own loading and clearing of data: long statements, which STATEMENT_TIMEOUT (for requests) must not cut. */
  const untimed = (work: (trx: Knex.Transaction) => Promise<unknown>) =>
    db.transaction(async (trx) => {
      await trx.raw('set local statement_timeout = 0');
      await work(trx);
    });
  /** SQL statements one run of `work` issues, its token cached (as for a client sending request after request). */
  const statements = async (work: () => Promise<unknown>) => {
    await fetch(`${base}/api/`, { headers: auth }).then((r) => r.arrayBuffer());
    const before = server.db.queryCount;
    await work();
    return server.db.queryCount - before;
  };
  /** Checks that the baseline answers what Patchbay answers at `path`, then measures both. */
  const compare = async (title: string, path: string, handler: Parameters<typeof startBaseline>[0]): Promise<void> => {
    const baseline = await startBaseline(handler);
    try {
      const query = new URL(path, 'http://x').search;
      await sameJson(`${baseline.url}${query}`, `${base}${path}`, auth);
      const sql = await statements(() => fetch(`${base}${path}`, { headers: auth }).then((r) => r.arrayBuffer()));
      const rows = await measureSides([
        requestTo('hand-written SQL (baseline)', `${baseline.url}${query}`),
        requestTo(`Patchbay GET ${path.split('?')[0]}`, `${base}${path}`, auth),
      ], seconds);
      report(`${title} (${seconds} s each in turns, 4 clients)`, rows, { statements: sql });
    } finally {
      await baseline.close();
    }
  };

  await db.raw(`truncate tenancy_tenant, tenancy_tenantgroup restart identity cascade`);
  await db.raw(`insert into tenancy_tenantgroup (name, slug, parent_id, created, last_updated)
    select 'Group ' || i, 'group-' || i, case when i > 10 then (i % 10) + 1 end, now(), now() from generate_series(1, 100) i`);
  await db.raw(`insert into tenancy_tenant (name, slug, group_id, description, created, last_updated)
    select 'Tenant ' || i, 'tenant-' || i, (i % 100) + 1, 'Tenant number ' || i, now(), now() from generate_series(1, 1000) i`);
  // Tables as autovacuum keeps them after inserts: the statistics a plan PostgreSQL keeps for a prepared statement is
  // made from, and the visibility map index-only scans read (generate-demo ends the same way).
  await db.raw('vacuum (analyze)');

  for (const limit of [50, 1000]) {
    for (const brief of [false, true]) {
      await compare(`List ${limit} tenants, ${brief ? 'brief' : 'full'}`, `/api/tenancy/tenants/?limit=${limit}${brief ? '&brief=1' : ''}`, tenantList(plain, brief));
    }
  }

  // As users run it: `manage runserver` processes on this database (cold start, memory, WORKERS=1 against 2).
  await processesBench(database.adminUrl, auth, seconds);

  // What the metrics cost a request: a second server on the same data, with METRICS_ENABLED, against this one.
  const metered = await createServer({
    builtins: builtinPlugins,
    env: { PATCHBAY_CONFIG: '' },
    settings: { DATABASE_URL: database.adminUrl, PORT: 0, LOG_LEVEL: 'error', SECRET_KEY: 'bench', METRICS_ENABLED: true },
  });
  try {
    const meteredBase = await metered.listen();
    for (const [title, path] of [['One tenant', '/api/tenancy/tenants/1/'], ['List 1000 tenants, full', '/api/tenancy/tenants/?limit=1000']]) {
      report(`${title} with METRICS_ENABLED (${seconds} s each in turns, 4 clients)`, await measureSides([
        requestTo('without metrics (baseline)', `${base}${path}`, auth),
        requestTo('METRICS_ENABLED', `${meteredBase}${path}`, auth),
      ], seconds));
    }
  } finally {
    await metered.close();
  }

  // Bulk writes: 100 tenants a request, each with a group named by slug, two tags and a custom field.
  const api = (path: string, body: unknown) =>
    fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { ...auth, 'Content-Type': 'application/json' } }).then((r) => r.json());
  const [tag1, tag2] = (await api('/api/extras/tags/', [{ name: 'Bench A', slug: 'bench-a' }, { name: 'Bench B', slug: 'bench-b' }])) as { id: number }[];
  await api('/api/extras/custom-fields/', { name: 'cost', type: 'integer', object_types: ['tenancy.tenant'] });
  const tenantType = (await db('core_objecttype').where({ app_label: 'tenancy', model: 'tenant' }).first('id')).id as number;
  let serial = 0;
  const tenants = (): TenantBody[] =>
    Array.from({ length: 100 }, () => {
      const n = serial++;
      return { name: `Bulk ${n}`, slug: `bulk-${n}`, group: { slug: `group-${(n % 100) + 1}` }, tags: [tag1.id, tag2.id], custom_fields: { cost: n } };
    });
  const writer = await startBaseline(bulkCreateTenants(plain, { tenant: tenantType }));
  try {
    const post = { body: tenants, status: 201 };
    const rows = await measureSides([
      requestTo('hand-written SQL (baseline)', writer.url, {}, post),
      requestTo('Patchbay POST /api/tenancy/tenants/ (100)', `${base}/api/tenancy/tenants/`, auth, post),
    ], seconds);
    report(`Bulk create 100 tenants with group, tags and a custom field (${seconds} s each in turns, 4 clients)`, rows);
    // 10,000 in one request, three requests one at a time.
    const many = { body: () => Array.from({ length: 100 }, tenants).flat(), status: 201 };
    const options = { post: many, items: 10_000, concurrency: 1, warmup: 1, unit: 'tenants' };
    const sql = await statements(() => api('/api/tenancy/tenants/', many.body()));
    report('Bulk create 10,000 tenants with group, tags and a custom field in one request (3 requests)', [
      await measureCount('hand-written SQL (baseline)', writer.url, 3, options),
      await measureCount('Patchbay POST /api/tenancy/tenants/ (10,000)', `${base}/api/tenancy/tenants/`, 3, { ...options, headers: auth }),
    ], { statements: sql });
  } finally {
    await writer.close();
  }
  await untimed((trx) => trx.raw(`delete from tenancy_tenant where name like 'Bulk %'`));

  // 100k tenants: q search (trigram indexes) within a group subtree.
  await db.raw(`insert into tenancy_tenant (name, slug, group_id, description, created, last_updated)
    select 'Tenant ' || i, 'tenant-' || i, (i % 100) + 1, 'Tenant number ' || i, now(), now() from generate_series(1001, 100000) i`);
  await db.raw('vacuum (analyze)');
  await compare('Filter 100,000 tenants: q=4242&group=group-43, 50 a page', '/api/tenancy/tenants/?q=4242&group=group-43', filteredTenants(plain));

  // DCIM: the demo data set (40 sites of 50 devices: 2,000 devices, about 39,000 interfaces).
  // With extras' config contexts (global, by region, by role, by tag) and the leaf switches' config template.
  await untimed(async (trx) => {
    for (const step of [...dcimDemoSteps({ sites: 40, 'devices-per-site': 50 }, server.registry, { first: 1, last: 40 }), ...extrasDemoSteps()]) await step.run(trx);
  });
  await db.raw('vacuum (analyze)');
  const scenarios: [string, string, ReturnType<typeof interfaceList>][] = [50, 1000].flatMap((limit): [string, string, ReturnType<typeof interfaceList>][] => [
    [`List ${limit} interfaces, full`, `/api/dcim/interfaces/?limit=${limit}`, interfaceList(plain, false)],
    [`List ${limit} interfaces, brief`, `/api/dcim/interfaces/?limit=${limit}&brief=1`, interfaceList(plain, true)],
    [`List ${limit} devices, full (with config_context)`, `/api/dcim/devices/?limit=${limit}`, deviceList(plain)],
    [`List ${limit} devices, brief`, `/api/dcim/devices/?limit=${limit}&brief=1`, deviceBriefList(plain)],
  ]);
  for (const [title, path, handler] of scenarios) await compare(title, path, handler);

  // Cabling: besides the demo's (interfaces to interfaces and to front ports, paths through patch panels), cables made
  // through the API so that the cabled page shows every kind of link peer and connected endpoint (cablingFixtures).
  const send: Api = async <T,>(path: string, body: unknown, method = 'POST'): Promise<T> => {
    const res = await fetch(`${base}${path}`, { method, body: JSON.stringify(body), headers: { ...auth, 'Content-Type': 'application/json' } });
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as T;
  };
  const traced = await cablingFixtures(send, db);
  await db.raw('vacuum (analyze)');
  const cabledPath = '/api/dcim/interfaces/?cabled=true&limit=1000';
  const cabled = ((await (await fetch(`${base}${cabledPath}`, { headers: auth })).json()) as { results: Record<string, unknown>[] }).results;
  const kinds: [string, unknown[]][] = [
    ['link_peers_type', ['dcim.interface', 'dcim.frontport', 'dcim.rearport', 'circuits.circuittermination']],
    ['connected_endpoints_type', ['dcim.interface', 'circuits.providernetwork', null]],
    ['connected_endpoints_reachable', [true, false]],
  ];
  for (const [key, wanted] of kinds) {
    const found = new Set(cabled.map((r) => r[key]));
    if (!wanted.every((k) => found.has(k))) throw new Error(`The cabled page lacks ${key} ${wanted.filter((k) => !found.has(k)).join(', ')}`);
  }
  await compare('List 1000 cabled interfaces, full', cabledPath, interfaceList(plain, false, true));
  const segments = (await (await fetch(`${base}/api/dcim/interfaces/${traced}/trace/`, { headers: auth })).json()) as unknown[];
  if (segments.length !== 10) throw new Error(`The trace has ${segments.length} segments, not 10`);
  await compare('Trace one path of 10 hops', `/api/dcim/interfaces/${traced}/trace/`, interfaceTrace(plain, traced));

  // Cable writes between free interfaces: each request uses up its own, so a fixed number of requests is timed, the
  // two sides in turns, with pairs from one pool; then what each side wrote per cable is compared.
  const [singles, bulkSize, bulkRequests] = [1000, 1000, 6];
  const warmups = { singles: 3, bulk: 1 };
  // Both sides: the timed cables, the warm-up and the three cables of the answers compared.
  const pool = await freeInterfaces(send, db, 2 * (2 * (singles + warmups.singles) + 2 * (bulkRequests + warmups.bulk) * bulkSize + 2 * 3));
  let taken = 0;
  const nextCable = (): CableBody => ({
    a_terminations: [{ object_type: 'dcim.interface', object_id: pool[taken++] }], b_terminations: [{ object_type: 'dcim.interface', object_id: pool[taken++] }],
  });
  const typeOf = async (app: string, model: string) => ((await db('core_objecttype').where({ app_label: app, model }).first('id')) as { id: number }).id;
  const [cableType, interfaceType] = [await typeOf('dcim', 'cable'), await typeOf('dcim', 'interface')];
  const cabler = await startBaseline(createCables(plain, { cable: cableType, interface: interfaceType }, { id: admin.id as number, name: 'bench' }));
  try {
    const writes = [
      { title: `Create ${singles} cables, one request each (4 clients, in 10 turns)`, requests: singles, items: 1, concurrency: 4, rounds: 10, warmup: warmups.singles },
      {
        title: `Create ${bulkSize} cables in one bulk request (${bulkRequests} requests each, one at a time, in turns)`, requests: bulkRequests, items: bulkSize,
        concurrency: 1, rounds: bulkRequests, warmup: warmups.bulk,
      },
    ];
    for (const { title, requests, items, concurrency, rounds, warmup } of writes) {
      const sample = () => (items > 1 ? [nextCable(), nextCable()] : nextCable());
      await sameAnswer(cabler.url, `${base}/api/dcim/cables/`, sample(), sample(), auth);
      // Each side's cables, known by the interface at their A end.
      const ends = { baseline: [] as number[], patchbay: [] as number[] };
      const bodyOf = (side: number[]) => () => {
        const cables = Array.from({ length: items }, () => {
          const cable = nextCable();
          side.push(cable.a_terminations[0].object_id);
          return cable;
        });
        return items > 1 ? cables : cables[0];
      };
      const rows = await measureInTurns([
        { name: 'hand-written SQL (baseline)', url: cabler.url, post: { body: bodyOf(ends.baseline), status: 201 } },
        { name: `Patchbay POST /api/dcim/cables/${items > 1 ? ` (${items})` : ''}`, url: `${base}/api/dcim/cables/`, headers: auth, post: { body: bodyOf(ends.patchbay), status: 201 } },
      ], requests, { rounds, concurrency, warmup, items, unit: 'cables' });
      const [theirs, ours] = await Promise.all([ends.baseline, ends.patchbay].map((side) => writtenPerCable(db, side, cableType, interfaceType)));
      if (!isDeepStrictEqual(ours, theirs)) throw new Error(`The baseline writes ${JSON.stringify(theirs)} a cable, Patchbay ${JSON.stringify(ours)}`);
      const [logged, ourLog] = await Promise.all([ends.baseline, ends.patchbay].map((side) => changeRecords(db, side, cableType, interfaceType)));
      if (!isDeepStrictEqual(logged, ourLog)) throw new Error(`The baseline logs cables as ${JSON.stringify(logged)}, Patchbay as ${JSON.stringify(ourLog)}`);
      report(title, rows);
    }
  } finally {
    await cabler.close();
  }

  // IPAM: the demo's addressing of the same sites; 100,000 prefixes in four levels (the global table's /16s, /20s,
  // /24s and /28s of 10.64.0.0/10); a /8 whose first 100,000 addresses are taken.
  await untimed(async (trx) => {
    for (const step of ipamDemoSteps({ first: 1, last: 40 })) await step.run(trx);
  });
  await db.raw('vacuum (analyze)');

  // Configuration rendering: a leaf switch's template (about 300 lines, a loop over its interfaces) in a worker thread
  // with the device reached from the template, against the same text written by hand from three statements.
  const leaf = (await db('dcim_device as d').join('dcim_devicerole as r', 'r.id', 'd.role_id').where('r.name', 'Leaf switch').orderBy('d.id').first('d.id')) as { id: number };
  const renderPath = `/api/dcim/devices/${leaf.id}/render-config/`;
  const renderer = await startBaseline(renderLeafBaseline(plain, leaf.id));
  try {
    const post = (status: number) => ({ body: () => ({}), status });
    const rendered = async (url: string, headers: Record<string, string>) =>
      (await fetch(url, { method: 'POST', body: '{}', headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json' } })).json();
    // Patchbay's links use the host it was asked for; the baseline's use its own.
    const [theirs, ours] = [
      JSON.parse(JSON.stringify(await rendered(renderer.url, {})).replaceAll(new URL(renderer.url).origin, 'BASE')) as unknown,
      JSON.parse(JSON.stringify(await rendered(`${base}${renderPath}`, auth)).replaceAll(base, 'BASE')) as unknown,
    ];
    if (!isDeepStrictEqual(theirs, ours)) throw new Error(`render-config: the baseline and Patchbay render differently:\n${JSON.stringify(theirs).slice(0, 400)}\n${JSON.stringify(ours).slice(0, 400)}`);
    const rows = await measureSides([
      requestTo('hand-written SQL and text (baseline)', renderer.url, {}, post(201)),
      requestTo('Patchbay POST /api/dcim/devices/<id>/render-config/', `${base}${renderPath}`, auth, post(200)),
    ], seconds);
    report(`Render a leaf switch's configuration, ${String((ours as { content: string }).content.split('\n').length)} lines (${seconds} s each in turns, 4 clients)`, rows);
  } finally {
    await renderer.close();
  }

  // GraphQL on the demo data: one query against the hand-written statement answering the same JSON, and against
  // the REST requests a client makes for the same data (devices, then their interfaces, then their addresses).
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: auth });
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const graphql = async (query: string) => {
    const res = await fetch(`${base}/graphql/`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await res.json()) as Record<string, unknown>;
  };
  const graphqlScenarios: [string, string, ReturnType<typeof vlanPrefixesSql>, typeof vlanPrefixesRest][] = [
    ['GraphQL vlan_list { prefixes }', VLAN_PREFIXES, vlanPrefixesSql(plain), vlanPrefixesRest],
    ['GraphQL device_list { interfaces { ip_addresses } }, 1000 devices', DEVICE_INTERFACES, deviceInterfacesSql(plain, await typeOf('dcim', 'interface')), deviceInterfacesRest],
  ];
  for (const [title, query, sql, rest] of graphqlScenarios) {
    const answers = [await sql(), await graphql(query), await rest(get)];
    if (!isDeepStrictEqual(answers[0], answers[1]) || !isDeepStrictEqual(answers[0], answers[2])) throw new Error(`${title}: the baseline, GraphQL and REST answers differ`);
    const baseline = await startBaseline(sql);
    try {
      const [graphqlSql, restSql] = [await statements(() => graphql(query)), await statements(() => rest(get))];
      const restRequests = { count: 0 };
      await rest(async (path) => (restRequests.count++, get(path)));
      report(`${title} (${seconds} s each in turns, 4 clients)`, await measureSides([
        requestTo('hand-written SQL (baseline, 1 statement)', baseline.url),
        requestTo(`Patchbay POST /graphql/ (${graphqlSql} statements)`, `${base}/graphql/`, auth, { body: () => ({ query }), status: 200 }),
        { name: `Patchbay REST, ${restRequests.count} requests (${restSql} statements)`, hit: () => rest(get) },
      ], seconds));
    } finally {
      await baseline.close();
    }
  }

  const [{ n: existing }] = (await db('ipam_prefix').count({ n: '*' })) as { n: string }[];
  const levels: [number, number, string][] = [[16, 64, 'container'], [20, 1024, 'container'], [24, 16384, 'active']];
  const smallest = 100_000 - Number(existing) - levels.reduce((sum, [, count]) => sum + count, 0) - 1;
  for (const [length, count, status] of [...levels, [28, smallest, 'active'] as const]) {
    await db.raw(`insert into ipam_prefix (prefix, status, is_pool, mark_utilized, description, comments, created, last_updated)
      select set_masklen('10.64.0.0'::inet + i * ?, ?)::cidr, ?, false, false, '', '', now(), now() from generate_series(0, ? - 1) i`, [2 ** (32 - length), length, status, count]);
  }
  const [slash8] = (await db('ipam_prefix')
    .insert({ prefix: '120.0.0.0/8', status: 'active', is_pool: false, mark_utilized: false, description: '', comments: '', created: db.fn.now(), last_updated: db.fn.now() })
    .returning('id')) as { id: number }[];
  await db.raw(`insert into ipam_ipaddress (address, status, role, dns_name, description, comments, created, last_updated)
    select set_masklen('120.0.0.0'::inet + i, 8), 'active', '', '', '', '', now(), now() from generate_series(1, 100000) i`);
  await db.raw('vacuum (analyze)');
  const ipamScenarios: [string, string, ReturnType<typeof prefixList>][] = [
    ['Available IPs of a /8 holding 100,000 addresses, first 100', `/api/ipam/prefixes/${slash8.id}/available-ips/?limit=100`, availableIps(plain, slash8.id)],
    ...[50, 1000].flatMap((limit): [string, string, ReturnType<typeof prefixList>][] => [
      [`List ${limit} IP addresses, full`, `/api/ipam/ip-addresses/?limit=${limit}`, ipAddressList(plain)],
      [`List ${limit} IP addresses, brief`, `/api/ipam/ip-addresses/?limit=${limit}&brief=1`, ipAddressBriefList(plain)],
      [`List ${limit} prefixes with _depth and children, among 100,000`, `/api/ipam/prefixes/?limit=${limit}`, prefixList(plain)],
      [`List ${limit} prefixes, brief, among 100,000`, `/api/ipam/prefixes/?limit=${limit}&brief=1`, prefixBriefList(plain)],
    ]),
  ];
  for (const [title, path, handler] of ipamScenarios) await compare(title, path, handler);

  // Webhooks and event rules end to end, on a database of their own in the same cluster: events/s from one bulk
  // create to a local receiver, commit-to-delivery latency, what an enabled rule adds to a bulk create; with bull on
  // a Redis (the server or a `manage worker` delivering), on the Redis `npm start` embeds, and the PostgreSQL queue.
  await eventsBench(database.adminUrl, seconds);

  await summary(new URL('./results.json', import.meta.url).pathname, {
    date: new Date().toISOString(), seconds, node: process.version, cpus: availableParallelism(), cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30),
  });
} finally {
  await plain.destroy();
  await server.close();
  await database.stop();
}

/** The cables whose A end is one of the interfaces `:ends` (of type `:iface`), as SQL: what one side of the bench wrote. */
function cablesOf(): string {
  return `select cable_id as id from dcim_cabletermination where termination_type_id = :iface and cable_end = 'A' and termination_id = any(:ends::int[])`;
}

/** The change records of the cables at `ends`, but for what identifies a cable: each distinct kind once. */
async function changeRecords(db: Db, ends: number[], cableType: number, interfaceType: number): Promise<unknown[]> {
  const { rows } = (await db.raw(
    `select distinct user_id is not null as by_user, action, object_repr = '#' || changed_object_id as repr, message, prechange_data,
       postchange_data - 'a_terminations' - 'b_terminations' as data, jsonb_array_length(postchange_data -> 'a_terminations') as a_ends,
       jsonb_array_length(postchange_data -> 'b_terminations') as b_ends
     from extras_objectchange where changed_object_type_id = :type and changed_object_id in (${cablesOf()})
     order by data, a_ends, b_ends`,
    { ends, type: cableType, iface: interfaceType },
  )) as { rows: unknown[] };
  return rows;
}

/** What was written for the cables at `ends`, per cable: terminations, cabled interfaces, paths and their nodes, change records. */
async function writtenPerCable(db: Db, ends: number[], cableType: number, interfaceType: number): Promise<Record<string, number>> {
  const { rows } = (await db.raw(
    `with c as (select id, 'dcim.cable:' || id as node from (${cablesOf()}) x),
       p as (select distinct path_id as id from dcim_cablepathnode where node in (select node from c))
     select (select count(*) from c)::float as cables,
       (select count(*) from dcim_cabletermination where cable_id in (select id from c)) as terminations,
       (select count(*) from dcim_interface where cable_id in (select id from c)) as interfaces,
       (select count(*) from dcim_cablepath where id in (select id from p) and is_complete and is_active and not is_split) as paths,
       (select count(*) from dcim_cablepathnode where path_id in (select id from p)) as nodes,
       (select count(*) from dcim_cablepathnode where path_id in (select id from p) and origin) as origins,
       (select count(*) from extras_objectchange where changed_object_type_id = :type and changed_object_id in (select id from c) and action = 'create') as changes`,
    { ends, type: cableType, iface: interfaceType },
  )) as { rows: Record<string, string | number>[] };
  const [{ cables, ...counts }] = rows;
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v) / Number(cables)]));
}

/** An answer with what differs between writes to different objects (ids, links, names) shown as its type. */
function masked(value: unknown, identifying: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => masked(v, identifying));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, identifying.has(k) && v !== null ? typeof v : masked(v, identifying)]));
}

/** Checks that the baseline answers a write as Patchbay does (`ours` and `theirs`: one body for each, to different objects). */
async function sameAnswer(baselineUrl: string, patchbayUrl: string, theirs: unknown, ours: unknown, headers: Record<string, string>): Promise<void> {
  const post = (url: string, body: unknown, auth: Record<string, string>) =>
    fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { ...auth, 'Content-Type': 'application/json' } }).then((r) => r.json());
  const [expected, actual] = (await Promise.all([post(baselineUrl, theirs, {}), post(patchbayUrl, ours, headers)])).map((answer) =>
    masked(answer, new Set(['id', 'object_id', 'url', 'display_url', 'display', 'display_name', 'name', 'created', 'last_updated'])));
  if (isDeepStrictEqual(expected, actual)) return;
  throw new Error(`The baseline answers a write differently from ${patchbayUrl}: ${JSON.stringify(expected).slice(0, 300)} against ${JSON.stringify(actual).slice(0, 300)}`);
}

/** The baseline must answer exactly what Patchbay answers (results compared after both ran once). */
async function sameJson(baselineUrl: string, patchbayUrl: string, headers: Record<string, string>): Promise<void> {
  const [expected, actual] = await Promise.all([fetch(baselineUrl).then((r) => r.json()), fetch(patchbayUrl, { headers }).then((r) => r.json())]);
  // Patchbay's links use the host it was asked for; the baseline's use its own.
  const list = (value: unknown) => (Array.isArray(value) ? value : (value as { results: unknown }).results);
  const normalise = (value: unknown, origin: string) => JSON.parse(JSON.stringify(list(value)).replaceAll(origin, 'BASE')) as unknown;
  const a = normalise(expected, new URL(baselineUrl).origin);
  const b = normalise(actual, new URL(patchbayUrl).origin);
  if (isDeepStrictEqual(a, b)) return;
  const [first, second] = [(a as unknown[])[0], (b as unknown[])[0]] as Record<string, unknown>[];
  const differing = Object.keys({ ...first, ...second }).filter((k) => !isDeepStrictEqual(first?.[k], second?.[k]));
  throw new Error(`The baseline answers differently from ${patchbayUrl} (first row differs in: ${differing.join(', ') || 'order or later rows'})`);
}
process.exit(0);
