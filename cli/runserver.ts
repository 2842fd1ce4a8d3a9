import cluster from 'node:cluster';
import { createServer as createNetServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { SettingsError, loadSettings } from '../kernel/config/load.js';
import type { Settings } from '../kernel/config/settings.js';
import type { Plugin } from '../kernel/plugin.js';
import { stopSignal } from '@patchbay/embedded';
import { superviseWorkers } from './cluster.js';

/** Why the server cannot listen, as a start-up message naming the setting to change. */
function listenProblem(err: unknown, { HOST, PORT }: Pick<Settings, 'HOST' | 'PORT'>): unknown {
  switch ((err as { code?: string }).code) {
    case 'EADDRINUSE':
      return new SettingsError(`PORT: ${HOST}:${PORT} is already in use; stop the program using it or set PORT to a free port`);
    case 'EACCES':
      return new SettingsError(`PORT: this user may not listen on ${HOST}:${PORT} (ports below 1024 need privileges); set PORT to 1024 or above`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new SettingsError(`HOST: ${HOST} is not an address of this machine; set HOST to one of its addresses (0.0.0.0 for all)`);
    default:
      return err;
  }
}

/** Fails as listening would, before anything starts: a taken port must not cost a database's creation or migration. */
async function checkListen(settings: Pick<Settings, 'HOST' | 'PORT'>): Promise<void> {
  if (settings.PORT === 0) return;
  const probe = createNetServer();
  await new Promise<void>((ok, fail) => {
    probe.once('error', (err) => fail(listenProblem(err, settings)));
    probe.listen(settings.PORT, settings.HOST, () => probe.close(() => ok()));
  });
}

/**
 * Serves until SIGINT or SIGTERM, then finishes the requests under way and stops the embedded database cleanly. With
 * WORKERS above 1 (one per core by default), this process supervises that many serving ones.
 */
export async function runserver(_args: string[], builtins: Plugin[]): Promise<number> {
  if (cluster.isWorker) return serve(builtins);
  const settings = loadSettings();
  await checkListen(settings);
  const workers = settings.WORKERS || availableParallelism();
  return workers > 1 ? superviseWorkers(workers, builtins) : serve(builtins);
}

/** One serving process: alone, or a worker of the supervising one (which then says where they listen). */
async function serve(builtins: Plugin[]): Promise<number> {
  // Loaded here: a primary supervising workers serves nothing and need not load the HTTP server.
  const { createServer } = await import('../kernel/server.js');
  const server = await createServer({ builtins, startsRedis: cluster.isPrimary });
  let url: string;
  try {
    server.prepare();
    url = await server.listen();
  } catch (err) {
    // Nothing is left running: the embedded PostgreSQL stops with the server.
    await server.close();
    throw listenProblem(err, server.settings);
  }
  if (cluster.isPrimary) server.log.info(`Patchbay listening on ${url}/api/`);
  const signal = await stopSignal();
  if (cluster.isPrimary) server.log.info(`${signal}: shutting down (requests under way get ${server.settings.SHUTDOWN_TIMEOUT} s)`);
  await server.close();
  return 0;
}
