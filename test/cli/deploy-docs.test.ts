import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../kernel/config/load.js';
import { SETTINGS } from '../../kernel/config/settings.js';
import type { Database } from '../../kernel/db/database.js';
import { healthRouter, type Lifecycle } from '../../kernel/http/health.js';
import { MANAGE, ROOT, manage } from '../helpers/cli.js';

/**
 * docs/deploy.md and the Dockerfile name settings, commands, paths and numbers that live in the code: each is checked
 * against it here, so that neither can drift from what the server does.
 */
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const doc = read('docs/deploy.md');
const dockerfile = read('Dockerfile');
const dockerignore = read('.dockerignore');
const defaults = validateSettings({}) as Record<string, unknown>;

/** Environment variables the two files name that are not Patchbay settings. */
const FOREIGN = new Set([
  'NODE_ENV', 'PATCHBAY_CONFIG', 'NODE_IMAGE', 'NPM_CONFIG_UPDATE_NOTIFIER', 'NPM_CONFIG_FUND', 'NPM_CONFIG_AUDIT',
  'POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB',
]);

/** Names that look like settings: UPPER_SNAKE words, `NAME=` assignments, YAML and JSON keys in upper case. */
function settingLike(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)) names.add(m[0]);
  for (const m of text.matchAll(/(?:^|[\s`'"(])([A-Z][A-Z0-9_]*)=/gm)) names.add(m[1]);
  for (const m of text.matchAll(/^\s+([A-Z][A-Z0-9_]*):\s/gm)) names.add(m[1]);
  for (const m of text.matchAll(/"([A-Z][A-Z0-9_]*)"\s*:/g)) names.add(m[1]);
  return names;
}

/** The fenced blocks of one language in the document. */
function blocks(lang: string): string[] {
  return [...doc.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

/** A Dockerfile instruction's exec form (`CMD [...]`), continuation lines joined. */
function execForm(instruction: string): string[] {
  const joined = dockerfile.replace(/\\\n\s*/g, ' ');
  const line = joined.split('\n').find((l) => l.startsWith(`${instruction} `));
  expect(line, `${instruction} in the Dockerfile`).toBeDefined();
  const json = line!.slice(line!.indexOf('['));
  return JSON.parse(json) as string[];
}

/** The HEALTHCHECK's command (`HEALTHCHECK --options… CMD [...]`). */
function healthcheckCommand(): string[] {
  const joined = dockerfile.replace(/\\\n\s*/g, ' ');
  const line = joined.split('\n').find((l) => l.startsWith('HEALTHCHECK '));
  expect(line, 'HEALTHCHECK in the Dockerfile').toBeDefined();
  return JSON.parse(line!.slice(line!.indexOf('CMD [') + 4)) as string[];
}

/** Runs the Dockerfile's HEALTHCHECK command as the container would, with PORT; resolves with its exit code. */
function healthcheck(port: number): Promise<number | null> {
  const [command, ...args] = healthcheckCommand();
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: 'ignore' });
  return new Promise((ok) => child.once('exit', ok));
}

/** A number a source file declares, as `name: 1_000` or `const NAME = 15`. */
function declared(path: string, pattern: RegExp): number {
  const m = read(path).match(pattern);
  expect(m, `${pattern} in ${path}`).not.toBeNull();
  return Number(m![1].replace(/_/g, ''));
}

describe('docs/deploy.md and the Dockerfile', () => {
  it('name only real settings, with their real defaults', () => {
    for (const [file, text] of [['docs/deploy.md', doc], ['Dockerfile', dockerfile]] as const) {
      const unknown = [...settingLike(text)].filter((name) => !(name in SETTINGS) && !FOREIGN.has(name));
      expect(unknown, `settings named in ${file} that kernel/config/settings.ts does not have`).toEqual([]);
    }
    // The table of production settings: each default as `manage settings` prints it.
    const rows = [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2].trim()] as const);
    expect(rows.length).toBeGreaterThan(20);
    for (const [name, shown] of rows) {
      const value = defaults[name];
      expect(shown, name).toBe(value === undefined || value === null ? 'unset' : `\`${JSON.stringify(value)}\``);
    }
    const table = new Set(rows.map(([name]) => name));
    for (const name of [
      'ALLOWED_HOSTS', 'SECRET_KEY', 'DATABASE_URL', 'DATABASE_POOL_SIZE', 'REDIS_URL', 'REDIS_PREFIX', 'MEDIA_ROOT', 'WORKERS', 'RUN_JOBS',
      'SHUTDOWN_TIMEOUT', 'STATEMENT_TIMEOUT', 'HEADERS_TIMEOUT', 'REQUEST_TIMEOUT', 'MAX_BODY_SIZE', 'LOG_FORMAT',
      'ACCESS_LOG', 'METRICS_ENABLED', 'METRICS_TOKEN', 'LOGIN_REQUIRED', 'TRUSTED_PROXIES',
    ]) {
      expect(table.has(name), `${name} in the settings table`).toBe(true);
    }
    // The systemd example's config file is valid as it stands.
    const [config] = blocks('json');
    expect(() => validateSettings(JSON.parse(config) as Record<string, unknown>)).not.toThrow();
  });

  it('name only real manage commands', async () => {
    const help = await manage(['help']);
    expect(help.code).toBe(0);
    const commands = new Set(help.stdout.split('\n').filter((l) => l.startsWith('  ')).map((l) => l.trim().split(' ')[0]));
    expect(commands).toContain('runserver');
    for (const [file, text] of [['docs/deploy.md', doc], ['Dockerfile', dockerfile]] as const) {
      const named = [...text.matchAll(/(?:bin\/manage\.ts|npm run -s manage --|`manage)(?:",)? "?([a-z][\w-]*)/g)].map((m) => m[1]);
      expect(named.length, file).toBeGreaterThan(0);
      expect(named.filter((c) => !commands.has(c)), `commands named in ${file}`).toEqual([]);
    }
  });

  it('build an image that runs runserver as npm start does, as a user other than root', () => {
    const cmd = execForm('CMD');
    expect(cmd).toEqual(['node', '--max-semi-space-size=32', '--import', 'tsx', 'bin/manage.ts', 'runserver']);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; allowScripts: Record<string, boolean> };
    expect(pkg.scripts.start).toBe(`exec ${cmd.join(' ')}`);
    // The tests start manage as npm does.
    expect(pkg.scripts.manage).toBe(`exec ${cmd.slice(0, -1).join(' ')}`);
    expect(['node', ...MANAGE.slice(1)]).toEqual(cmd.slice(0, -1));
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${defaults.PORT as number}$`, 'm'));
    expect(dockerfile).toMatch(new RegExp(`^\\s+PORT=${defaults.PORT as number} \\\\$`, 'm'));
    expect(dockerfile).toMatch(/^\s+HOST=0\.0\.0\.0 \\$/m);
    // What the image copies exists and is not left out of the build context.
    const ignored = new Set(dockerignore.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(' '));
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'bin', 'cli', 'kernel', 'plugins', 'packages']));
    for (const source of sources) {
      expect(existsSync(join(ROOT, source)), source).toBe(true);
      expect(ignored.has(source), `${source} in .dockerignore`).toBe(false);
    }
    for (const kept of ['node_modules', 'data', '.git', 'test']) expect(ignored.has(kept), kept).toBe(true);
    // Install scripts: exactly the packages package.json allows run (npm rebuild), none of those it refuses.
    const rebuild = dockerfile.match(/npm rebuild ([^\n&]+)/)?.[1].trim().split(/\s+/) ?? [];
    for (const [name, allowed] of Object.entries(pkg.allowScripts)) expect(rebuild.includes(name), name).toBe(allowed);
    expect(dockerfile).toContain('npm ci --omit=dev --ignore-scripts');
  });

  it('health-checks /readyz, which answers 503 when the database is down or the server stops', async () => {
    const command = healthcheckCommand();
    expect(command.slice(0, 2)).toEqual(['node', '-e']);
    expect(command[2]).toContain('/readyz');
    let up = true;
    const lifecycle: Lifecycle = { draining: false };
    const db = { ping: async () => up } as unknown as Database;
    const app = express().use(healthRouter(db, lifecycle));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await healthcheck(port)).toBe(0);
      up = false;
      expect(await healthcheck(port)).toBe(1);
      up = true;
      lifecycle.draining = true;
      expect(await healthcheck(port)).toBe(1);
    } finally {
      await new Promise((ok) => server.close(ok));
    }
    // Nothing listening: unhealthy, not a hang.
    expect(await healthcheck(port)).toBe(1);
  });

  it('give the proxy and the orchestrators limits that fit the server', () => {
    const [nginx] = blocks('nginx');
    const keepAliveServer = declared('kernel/server.ts', /keepAliveTimeout: ([\d_]+)/) / 1000;
    const keepAliveProxy = Number(nginx.match(/^\s+keepalive_timeout (\d+)s;/m)?.[1]);
    expect(keepAliveProxy).toBeLessThan(keepAliveServer);
    expect(doc).toContain(`below the server's ${keepAliveServer} s`);
    expect(Number(nginx.match(/client_max_body_size (\d+)m;/)?.[1]) * 1024 * 1024).toBe(defaults.MAX_BODY_SIZE);
    expect(Number(nginx.match(/client_header_timeout (\d+)s;/)?.[1])).toBe(defaults.HEADERS_TIMEOUT);
    expect(Number(nginx.match(/proxy_send_timeout (\d+)s;/)?.[1])).toBe(defaults.REQUEST_TIMEOUT);
    expect(nginx).toMatch(/proxy_set_header Host \$host;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);

    // Every stop timeout outlasts the supervisor's own deadline for its workers.
    const grace = declared('cli/cluster.ts', /const CLOSE_GRACE_SECONDS = (\d+)/);
    const deadline = (defaults.SHUTDOWN_TIMEOUT as number) + grace;
    expect(doc).toContain(`\`SHUTDOWN_TIMEOUT\` + ${grace} s`);
    const stops = [
      ...[...doc.matchAll(/stop_grace_period: (\d+)s/g)].map((m) => m[1]),
      ...[...doc.matchAll(/TimeoutStopSec=(\d+)/g)].map((m) => m[1]),
      ...[...`${doc}\n${dockerfile}`.matchAll(/(?:--stop-timeout|docker stop -t) (\d+)/g)].map((m) => m[1]),
      ...[...doc.matchAll(/terminationGracePeriodSeconds: (\d+)/g)].map((m) => m[1]),
    ].map(Number);
    expect(stops.length).toBeGreaterThanOrEqual(5);
    for (const stop of stops) expect(stop).toBeGreaterThan(deadline);
    expect(blocks('ini')[0]).toMatch(/^KillMode=mixed$/m);

    // The connection arithmetic's example uses the pool's real default size (plus the LISTEN connection).
    const pool = defaults.DATABASE_POOL_SIZE as number;
    expect(doc).toContain(`\`DATABASE_POOL_SIZE\`\n  connections (${pool} by default) plus one`);
    expect(doc).toContain(`Three machines with \`WORKERS=4\` and two workers: 3 × ${4 * (pool + 1) + 1} + ${2 * (pool + 1)} = `);
  });
});
