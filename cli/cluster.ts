import cluster, { type Worker } from 'node:cluster';
import { bootstrap } from '../kernel/boot.js';
import { EmbeddedRedis, freePort, stopSignal } from '@patchbay/embedded';
import type { Plugin } from '../kernel/plugin.js';
import { startRedis } from '../kernel/queue/start-redis.js';
import { ClusterMetricsSupervisor } from '@patchbay/cluster-metrics';

/** Seconds a stopping worker gets beyond SHUTDOWN_TIMEOUT (its outbox, jobs and pools) before it is killed. */
const CLOSE_GRACE_SECONDS = 15;
/** A worker that dies while serving is replaced after this pause, so that one failing at once does not spin. */
const RESPAWN_DELAY_MS = 1000;

/**
 * The primary of `runserver` with WORKERS above 1: migrates the database once and starts the embedded PostgreSQL and
 * Redis when no URL names others, then runs `count` server processes sharing the port (node's cluster module hands
 * them the connections in turn), each told those URLs and the secret. A worker that dies while serving is replaced;
 * one that fails to start stops them all. SIGTERM or SIGINT stops every worker gracefully, then what it started.
 */
export async function superviseWorkers(count: number, builtins: Plugin[]): Promise<number> {
  const { settings, log, db, applied, closeDatabase } = await bootstrap({ builtins });
  if (applied.length) log.info(`Applied migrations: ${applied.join(', ')}`);
  const redis = settings.REDIS_URL ? undefined : new EmbeddedRedis(settings.DATA_DIR);
  const redisUrl = settings.REDIS_URL ?? (await startRedis(redis, log));
  // Without Redis, the workers' metrics are summed here for whichever worker is scraped.
  if (settings.METRICS_ENABLED && !redisUrl) new ClusterMetricsSupervisor(log);
  const port = settings.PORT || (await freePort());
  const env = {
    DATABASE_URL: db.url,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    SECRET_KEY: settings.SECRET_KEY,
    PORT: String(port),
  };

  const listening = new Set<number>();
  let stopping = false;
  let failed: string | undefined;
  let started!: () => void;
  const allListening = new Promise<void>((ok) => (started = ok));
  /** Each replacement worker, by the pid of the one it replaces. */
  const replacing = new Map<number, number>();
  const fork = (): Worker => cluster.fork(env);
  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    // The first worker up answers at once: said then, before anyone's first request is answered.
    if (listening.size === 1 && count > 1 && replacing.get(worker.id) === undefined) {
      log.info(`Patchbay answering on http://${settings.HOST}:${port}/api/ (1 of ${count} workers up; the others are starting)`);
    }
    if (listening.size === count) started();
    const replaced = replacing.get(worker.id);
    if (replaced === undefined) return;
    replacing.delete(worker.id);
    log.info(`Worker ${worker.process.pid} serving in place of ${replaced}`);
  });
  cluster.on('exit', (worker, code, signal) => {
    const how = signal ?? `code ${code}`;
    if (stopping) return;
    if (!listening.has(worker.id)) {
      // It never served: starting more would fail the same way (its own output says why).
      failed = `a worker exited before it served (${how})`;
      started();
      return;
    }
    listening.delete(worker.id);
    log.warn(`Worker ${worker.process.pid} exited (${how}); starting another`);
    setTimeout(() => !stopping && replacing.set(fork().id, worker.process.pid ?? 0), RESPAWN_DELAY_MS);
  });
  for (let i = 0; i < count; i += 1) fork();

  const stop = async (): Promise<void> => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    const deadline = setTimeout(() => workers.forEach((w) => w.isDead() || w.process.kill('SIGKILL')), (settings.SHUTDOWN_TIMEOUT + CLOSE_GRACE_SECONDS) * 1000);
    await Promise.all(workers.map((w) => new Promise<void>((ok) => {
      w.once('exit', () => ok());
      w.process.kill('SIGTERM');
    })));
    clearTimeout(deadline);
    await redis?.stop();
    await closeDatabase();
  };

  const signalled = stopSignal();
  const outcome = await Promise.race([allListening.then(() => undefined), signalled]);
  if (outcome || failed !== undefined) {
    if (outcome) log.info(`${outcome}: shutting down`);
    await stop();
    if (failed === undefined) return 0;
    log.error(`Patchbay did not start: ${failed}`);
    return 1;
  }
  log.info(`Patchbay listening on http://${settings.HOST}:${port}/api/ (${count} workers)`);
  const signal = await signalled;
  log.info(`${signal}: shutting down (requests under way get ${settings.SHUTDOWN_TIMEOUT} s)`);
  await stop();
  return 0;
}
