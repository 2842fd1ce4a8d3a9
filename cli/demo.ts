import { parseArgs } from 'node:util';
import type { Plugin } from '../kernel/plugin.js';
import { createServer } from '../kernel/server.js';
import { demoUsage, sizesOf } from './demo-sizes.js';
import { Progress } from './progress.js';

/**
 * `generate-demo`: inserts a realistic data set, every plugin's steps after those of the plugins it depends on,
 * in one transaction (all or nothing) with set-based statements, then vacuums and analyzes the database. A rerun adds
 * only what is missing, so it can grow a data set. Demo rows are written directly: they have no change records.
 */
export async function generateDemo(args: string[], builtins: Plugin[]): Promise<number> {
  const specs = sizesOf(builtins);
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({ args, options: Object.fromEntries([...specs.keys()].map((k) => [k, { type: 'string' as const }])), strict: true }).values as Record<string, string | undefined>;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\nUsage: npm run -s manage -- ${demoUsage(builtins)}\n`);
    return 2;
  }
  const sizes: Record<string, number> = {};
  for (const [name, spec] of specs) {
    const given = values[name];
    if (given !== undefined && (!/^\d+$/.test(given) || Number(given) < 1 || Number(given) > spec.max)) {
      process.stderr.write(`--${name}: expected a whole number from 1 to ${spec.max}, got "${given}"\n`);
      return 2;
    }
    sizes[name] = given === undefined ? spec.default : Number(given);
  }

  const server = await createServer({ builtins });
  try {
    const steps = server.plugins.flatMap((ctx) => (ctx.plugin.demo ? ctx.plugin.demo.steps(sizes, ctx) : []));
    const progress = new Progress(steps.length + 1);
    let added = 0;
    await server.db.knex.transaction(async (trx) => {
      // Generating a large data set is one long transaction of long statements: STATEMENT_TIMEOUT is for requests.
      await trx.raw('set local statement_timeout = 0');
      for (const step of steps) {
        progress.start(step.label);
        const rows = await step.run(trx);
        added += rows;
        progress.finish(step.label, `${rows.toLocaleString('en')} rows`);
      }
    });
    // What autovacuum would do later, done now: the planner's statistics of the new rows, and the visibility map
    // that lets index-only scans (nested GraphQL lists, counts) skip the tables.
    const label = added ? 'Vacuum and analyze' : 'Nothing added: no vacuum';
    progress.start(label);
    if (added) await server.db.knex.raw('vacuum (analyze)');
    progress.finish(label, added ? 'done' : 'skipped');
    const shown = Object.entries(sizes).map(([k, v]) => `${k} ${v}`).join(', ');
    process.stdout.write(`Demo data (${shown}): added ${added.toLocaleString('en')} rows in ${progress.seconds.toFixed(1)} s.\n`);
    return 0;
  } finally {
    await server.close();
  }
}
