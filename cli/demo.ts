import { parseArgs } from 'node:util';
import { CommandError, type DemoPart, type Plugin } from '../kernel/plugin.js';
import { createServer } from '../kernel/server.js';
import { sizesOf } from './demo-sizes.js';
import { Progress } from './progress.js';

/**
 * `generate-demo`: inserts a realistic data set, every plugin's steps after those of the plugins it depends on,
 * with set-based statements, in parts of the size a plugin parts (`sites`), each part one transaction, then vacuums
 * and analyzes the database. A rerun adds only what is missing, so it grows a data set or completes an interrupted
 * one. Demo rows are written directly: they have no change records.
 */
export async function generateDemo(args: string[], builtins: Plugin[]): Promise<number> {
  const specs = sizesOf(builtins);
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({ args, options: Object.fromEntries([...specs.keys(), 'part'].map((k) => [k, { type: 'string' as const }])), strict: true }).values as Record<string, string | undefined>;
  } catch (err) {
    throw new CommandError((err as Error).message, 2);
  }
  const sizes: Record<string, number> = {};
  for (const [name, spec] of specs) {
    const given = values[name];
    if (given !== undefined && (!/^\d+$/.test(given) || Number(given) < 1 || Number(given) > spec.max)) {
      throw new CommandError(`--${name}: expected a whole number from 1 to ${spec.max}, got "${given}"`, 2);
    }
    sizes[name] = given === undefined ? spec.default : Number(given);
  }
  const parted = [...specs.entries()].find(([, spec]) => spec.part);
  if (values.part !== undefined) {
    const max = parted?.[1].max ?? 1;
    if (!/^\d+$/.test(values.part) || Number(values.part) < 1 || Number(values.part) > max) {
      throw new CommandError(`--part: expected a whole number from 1 to ${max}, got "${values.part}"`, 2);
    }
  }

  const server = await createServer({ builtins });
  try {
    const parts = parted ? partsOf(sizes[parted[0]], Number(values.part ?? parted[1].part)) : [{ first: 1, last: 1 }];
    const plan = parts.map((part) => ({ part, steps: server.plugins.flatMap((ctx) => (ctx.plugin.demo ? ctx.plugin.demo.steps(sizes, ctx, part) : [])) }));
    const progress = new Progress(plan.reduce((n, p) => n + p.steps.length, 0) + 1);
    const partLabel = ({ first, last }: DemoPart) => `${parted?.[0]} ${first.toLocaleString('en')}–${last.toLocaleString('en')}`;
    let added = 0;
    const build = async ({ part, steps }: (typeof plan)[number]) => {
      const started = Date.now();
      let rows = 0;
      await server.db.knex.transaction(async (trx) => {
        // Generating a large data set is a few long transactions of long statements: STATEMENT_TIMEOUT is for requests.
        await trx.raw('set local statement_timeout = 0');
        for (const step of steps) {
          const label = plan.length > 1 ? `${partLabel(part)}: ${step.label}` : step.label;
          progress.start(label);
          const stepRows = await step.run(trx);
          rows += stepRows;
          progress.finish(label, `${stepRows.toLocaleString('en')} rows`, plan.length > 1);
        }
      });
      added += rows;
      if (plan.length > 1) progress.note(`${partLabel(part)} of ${sizes[parted![0]].toLocaleString('en')}: ${rows.toLocaleString('en')} rows (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    };
    // The first part alone (it builds what the others share), then two at a time: on two cores the database inserts
    // about 1.8 times as fast.
    await build(plan[0]);
    await inTurns(plan.slice(1), PARTS_AT_ONCE, build);
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

const PARTS_AT_ONCE = 2;

/** Numbers 1 to `total` in slices of `size`. */
function partsOf(total: number, size: number): DemoPart[] {
  const parts: DemoPart[] = [];
  for (let first = 1; first <= total; first += size) parts.push({ first, last: Math.min(total, first + size - 1) });
  return parts;
}

/** Runs `work` on each item, at most `most` at once; the first failure is thrown once the others in flight end. */
async function inTurns<T>(items: T[], most: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  const lane = async () => {
    while (next < items.length && failure === undefined) {
      try {
        await work(items[next++]);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: most }, lane));
  if (failure !== undefined) throw failure;
}
