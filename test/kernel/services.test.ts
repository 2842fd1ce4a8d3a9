import { afterAll, describe, expect, it } from 'vitest';
import { definePlugin, provide, serviceToken, Services, type EnqueueOptions, type QueuePort } from 'patchbay';
import { PostgresQueue } from '@patchbay/queue';
import { builtinPlugins } from '../../plugins/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

/** The PostgreSQL queue, recording what is enqueued on it: a real queue put in the container in place of the default. */
function recordingQueue(inner: PostgresQueue, names: string[]): QueuePort {
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'enqueue') {
        return async (name: string, data: unknown, options?: EnqueueOptions) => {
          names.push(name);
          return target.enqueue(name, data, options);
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const GREETING = serviceToken<{ greet(name: string): string }>('greeter.greeting');
const greeter = definePlugin({
  name: 'greeter', version: '1.0.0', kernel: '*',
  provides: [provide(GREETING, (ctx) => ({ greet: (name) => `Hello ${name} from ${ctx.plugin.name}` }))],
});
const friend = definePlugin({
  name: 'friend', version: '1.0.0', kernel: '*', dependencies: ['greeter'],
  setup(ctx) {
    ctx.log.info(ctx.services.get(GREETING).greet('friend'));
  },
});
const stranger = definePlugin({
  name: 'stranger', version: '1.0.0', kernel: '*',
  setup(ctx) {
    ctx.services.get(GREETING);
  },
});

describe('services', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const t of servers) await t.close();
  });

  it('a default replaced through the container is the one the server runs on: tracked jobs go through the given queue', async () => {
    const enqueued: string[] = [];
    const t = await startServer({
      settings: { REDIS_URL: undefined },
      services: { queue: (services) => recordingQueue(new PostgresQueue({ knex: services.get(Services.db), log: services.get(Services.log), lockSeconds: 30 }), enqueued) },
    });
    servers.push(t);
    expect(t.server.queue.name).toBe('default');
    expect(t.server.pluginContext('tenancy').services.get(Services.queue)).toBe(t.server.queue);
    const job = await t.server.pluginContext('core').jobs.enqueue('core.housekeeping');
    await until(async () => (await t.get(`/api/core/jobs/${job.id}/`)).body.status.value === 'completed');
    expect(enqueued).toContain('core.run_job');
  });

  it('a clock given through the container is the one tracked jobs are scheduled by', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const t = await startServer({ services: { clock: () => ({ now: () => now }) } });
    servers.push(t);
    const [job] = (await t.get('/api/core/jobs/?name=core.housekeeping')).body.results;
    // The daily system job waits a day from the server's `now`, not the machine's.
    expect(Date.parse(job.scheduled)).toBe(now + 1440 * 60_000);
  });

  it('a plugin resolves the services of the plugins it depends on, and start-up stops naming both when it does not depend on them', async () => {
    const t = await startServer({ builtins: [...builtinPlugins, greeter, friend] });
    servers.push(t);
    expect(t.server.pluginContext('friend').services.get(GREETING).greet('you')).toBe('Hello you from greeter');
    const refused = await startServer({ builtins: [...builtinPlugins, greeter, stranger] }).catch((err: Error) => err);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe('plugin stranger: uses the service greeter.greeting of plugin greeter, which is not among its dependencies');
  });

  it('two plugins cannot provide the same service', async () => {
    const twin = definePlugin({ name: 'twin', version: '1.0.0', kernel: '*', provides: [provide(GREETING, () => ({ greet: () => '' }))] });
    const refused = await startServer({ builtins: [...builtinPlugins, greeter, twin] }).catch((err: Error) => err);
    expect((refused as Error).message).toBe('plugin twin: provides the service greeter.greeting, which plugin greeter provides already');
  });

  it('a service no enabled plugin provides is named when asked for: without core, no job is tracked', async () => {
    const t = await startServer({ builtins: builtinPlugins.filter((p) => p.name !== 'core') });
    servers.push(t);
    await expect(t.server.pluginContext('extras').jobs.enqueue('extras.housekeeping')).rejects.toThrow('no enabled plugin provides the service jobs');
    expect((await t.get('/api/core/jobs/')).status).toBe(404);
  });
});
