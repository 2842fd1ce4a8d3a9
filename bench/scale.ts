import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { generateDemo } from '../cli/demo.js';
import { keyDigest } from '../kernel/auth/tokens.js';
import { createServer } from '../kernel/server.js';
import { builtinPlugins } from '../plugins/index.js';
import { startPostgres } from '../testing/postgres.js';

/**
 * `npm run bench:scale [-- 20,1000,3000]`: the requests whose cost may grow with the tables, on the demo data grown
 * to each number of sites in turn (50 devices a site: 20 sites are 1,000 devices, 3,000 are 10 million rows), each the median of sequential
 * requests after a warm-up, and each size's time over the first size's. Writes `scale` into bench/results.json
 * and the scale table of docs/benchmarks.md.
 */
const sizes = (process.argv[2] ?? '20,1000,3000').split(',').map(Number);
const RUNS = 15;

interface Probe {
  title: string;
  /** The request at this size: the texts searched come from the data, the same at every size. */
  path: string;
  graphql?: string;
}

const database = await startPostgres();
const results: { title: string; ms: number[] }[] = [];
const counts: Record<string, number>[] = [];
try {
  for (const [k, sites] of sizes.entries()) {
    process.env.DATABASE_URL = database.adminUrl;
    process.env.LOG_LEVEL = 'error';
    const started = performance.now();
    if ((await generateDemo(['--sites', String(sites)], builtinPlugins)) !== 0) throw new Error('generate-demo failed');
    const server = await createServer({ builtins: builtinPlugins, env: { PATCHBAY_CONFIG: '' }, settings: { DATABASE_URL: database.adminUrl, PORT: 0, LOG_LEVEL: 'error', SECRET_KEY: 'bench' } });
    try {
      const db = server.db.knex;
      process.stderr.write(`${sites} sites: data, VACUUM and ANALYZE in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      const base = await server.listen();
      const key = randomBytes(20).toString('hex');
      const [admin] = await db('users_user').insert({ username: `scale-${k}`, password: '!', is_superuser: true }).returning('id');
      await db('users_token').insert({ user_id: admin.id, key, key_digest: keyDigest(key), last_used: db.fn.now() });
      const headers = { Authorization: `Token ${key}`, Accept: 'application/json', 'Content-Type': 'application/json' };

      // What is searched: the first site's core routers (two devices) and its first addresses' /24.
      const device = (await db('dcim_device').orderBy('id').first('name')) as { name: string };
      const address = (await db('ipam_ipaddress').orderBy('id').first(db.raw('host(address) as host'))) as { host: string };
      const devicePrefix = device.name.replace(/-[^-]*$/, '');
      const octets = address.host.split('.').slice(0, 3).join('.');
      const [{ n: devices }] = (await db('dcim_device').count({ n: '*' })) as { n: string }[];
      const deep = Math.floor(Number(devices) * 0.8);
      const deepId = ((await db('dcim_device').orderBy('id').offset(deep).first('id')) as { id: number }).id;
      counts.push({ sites, devices: Number(devices), rows: Number((await db.raw(`select sum(n_live_tup)::bigint as n from pg_stat_user_tables`)).rows[0].n) });

      const probes: Probe[] = [
        { title: 'devices, page of 50', path: '/api/dcim/devices/?limit=50' },
        { title: 'devices, brief page of 50', path: '/api/dcim/devices/?limit=50&brief=1' },
        { title: `devices ?q=<name prefix>`, path: `/api/dcim/devices/?q=${devicePrefix}` },
        { title: 'interfaces, page of 50', path: '/api/dcim/interfaces/?limit=50' },
        { title: 'interfaces, limit=1&brief=1 (the count)', path: '/api/dcim/interfaces/?limit=1&brief=1' },
        { title: 'IP addresses, page of 50', path: '/api/ipam/ip-addresses/?limit=50' },
        { title: 'IP addresses ?q=<first three octets>', path: `/api/ipam/ip-addresses/?q=${octets}.` },
        { title: 'prefixes, page of 50', path: '/api/ipam/prefixes/?limit=50' },
        { title: 'sites, page of 50', path: '/api/dcim/sites/?limit=50' },
        { title: 'devices at offset 80%', path: `/api/dcim/devices/?limit=50&offset=${deep}` },
        { title: 'devices from start= at 80%', path: `/api/dcim/devices/?limit=50&start=${deepId}` },
        {
          title: 'GraphQL 50 devices → interfaces → addresses', path: '/graphql/',
          graphql: '{ device_list(pagination: { limit: 50 }) { name interfaces { name ip_addresses { address } } } }',
        },
      ];
      for (const probe of probes) {
        const request = async () => {
          const res = await fetch(base + probe.path, probe.graphql ? { method: 'POST', headers, body: JSON.stringify({ query: probe.graphql }) } : { headers });
          const text = await res.text();
          if (res.status !== 200 || text.includes('"errors"')) throw new Error(`${probe.title}: ${res.status} ${text.slice(0, 300)}`);
        };
        for (let i = 0; i < 3; i++) await request();
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const t0 = performance.now();
          await request();
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        let row = results.find((r) => r.title === probe.title);
        if (!row) results.push((row = { title: probe.title, ms: [] }));
        row.ms[k] = times[Math.floor(RUNS / 2)];
      }
    } finally {
      await server.close();
    }
  }
} finally {
  await database.stop();
}

const label = (c: Record<string, number>) => `${c.devices.toLocaleString('en')} devices (${(c.rows / 1e6).toFixed(2)}M rows)`;
const header = `| Request | ${counts.map(label).join(' | ')} | Growth |`;
const lines = [header, `|---|${counts.map(() => '---|').join('')}---|`];
for (const { title, ms } of results) {
  const growth = ms[ms.length - 1] / ms[0];
  lines.push(`| ${title} | ${ms.map((v) => `${v.toFixed(1)} ms`).join(' | ')} | ${growth.toFixed(2)}× |`);
}
const table = lines.join('\n');
process.stdout.write(`${table}\n`);

// bench/results.json keeps the latest run's table beside the main bench's; docs/benchmarks.md shows it.
const file = new URL('./results.json', import.meta.url);
const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
saved.scale = { date: new Date().toISOString().slice(0, 10), cpus: cpus().length, sizes: counts, rows: results.map(({ title, ms }) => ({ title, ms: ms.map((v) => +v.toFixed(1)), growth: +(ms[ms.length - 1] / ms[0]).toFixed(2) })) };
writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`);
const doc = new URL('../docs/benchmarks.md', import.meta.url);
const text = readFileSync(doc, 'utf8');
const start = text.indexOf('| Request | ');
if (start >= 0) {
  const end = text.indexOf('\n\n', start);
  writeFileSync(doc, text.slice(0, start) + table + text.slice(end));
}
