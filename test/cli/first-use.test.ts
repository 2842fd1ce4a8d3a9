import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@patchbay/embedded';
import { ROOT, onTerminal, spawnNpm } from '../helpers/cli.js';
import { STARTS_WITHIN, until } from '../helpers/wait.js';

/** The shell blocks of the README's "Start it" section, line by line. */
function firstUseSteps(): string[][] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## Start it');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trim().split('\n'));
}

/** The shell blocks of a README section, each as one script. */
function sectionBlocks(title: string): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf(`## ${title}`);
  if (start < 0) throw new Error(`The README has no section ${title}`);
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Runs a README block with bash in Patchbay's folder, `KEY` set, the README's ports made the test's. */
async function runBlock(script: string, env: Record<string, string>, ports: { server: number; receiver: number }) {
  const text = script.replaceAll('127.0.0.1:8000', `127.0.0.1:${ports.server}`).replaceAll('127.0.0.1:9000', `127.0.0.1:${ports.receiver}`);
  const child = spawn('bash', ['-eo', 'pipefail', '-c', text], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise((ok) => child.once('exit', ok));
  if (code !== 0) throw new Error(`${text}\nexited ${String(code)}: ${stderr}`);
  return stdout;
}

/** What a shell makes of a simple command line: its words, quotes removed. */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);

describe("the README's quickstart", () => {
  it('run as written: start, a superuser and a token, demo data, a REST call, a GraphQL query, a rendered configuration, a delivered webhook', async () => {
    const [[start], steps] = firstUseSteps();
    // `npm install` has run already (the tests need it); the start is the same command.
    expect(start).toBe('npm install && npm start');
    const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-readme-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };
    const server = spawnNpm(['start'], env);
    let log = '';
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const deadline = Date.now() + STARTS_WITHIN;
    while (!log.includes('Patchbay listening')) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`npm start did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    try {
      expect(steps).toHaveLength(3);
      const [superuser, token, curl] = steps.map(words);
      expect(superuser.slice(0, 5)).toEqual(['npm', 'run', '-s', 'manage', '--']);
      const made = await onTerminal(superuser, ['first-use password', 'first-use password'], env);
      expect(made.code).toBe(0);
      expect(made.stdout).toContain('Superuser admin created.');

      const minted = spawnNpm(token.slice(1), env);
      let key = '';
      minted.stdout!.on('data', (d: Buffer) => (key += d.toString()));
      expect(await new Promise((ok) => minted.once('exit', ok))).toBe(0);
      // The key is all that npm -s prints: it can be piped.
      expect(key).toMatch(/^[0-9a-f]{40}\n$/);

      expect(curl[0]).toBe('curl');
      const header = curl[2].replace('<key>', key.trim());
      const url = curl[3].replace('127.0.0.1:8000', `127.0.0.1:${port}`);
      const [name, value] = header.split(': ');
      const status = await fetch(url, { headers: { [name]: value } });
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ 'netbox-version': '4.4', database: { status: 'ok' } });

      // The rest of the quickstart, as written: demo data, a REST call, a GraphQL query, a rendered configuration
      // and a webhook delivered to webhook_receiver.
      const ports = { server: port, receiver: await freePort() };
      const run = (script: string) => runBlock(script, { ...env, KEY: key.trim() }, ports);
      await run(sectionBlocks('Demo data')[0]);
      const devices = JSON.parse(await run(sectionBlocks('The REST API')[0])) as { count: number; results: { name: string }[] };
      expect(devices.count).toBeGreaterThan(0);
      expect(devices.results[0].name).toMatch(/^dc-\d{4}-leaf-\d{3}$/);
      const graphql = JSON.parse(await run(sectionBlocks('GraphQL')[0])) as { data: { site_list: { name: string; devices: unknown[] }[] } };
      expect(graphql.data.site_list).toHaveLength(2);
      expect(graphql.data.site_list[0].devices.length).toBeGreaterThan(0);
      const config = await run(sectionBlocks('A rendered configuration')[0]);
      expect(config).toMatch(/^! dc-\d{4}-leaf-\d{3} \(/);
      expect(config).toContain('router bgp 65100');
      const [receiverBlock, webhookBlock] = sectionBlocks('A webhook');
      expect(receiverBlock.trim()).toBe('npm run -s manage -- webhook_receiver');
      const receiver = spawnNpm([...words(receiverBlock.trim()).slice(1), '--port', String(ports.receiver)], env);
      let received = '';
      receiver.stdout!.on('data', (d: Buffer) => (received += d.toString()));
      try {
        await until(() => received.includes('Listening on'), STARTS_WITHIN, 'the receiver');
        await run(webhookBlock);
        await until(() => received.includes('"event": "created"'), 60_000, 'the delivery').catch(async (err: Error) => {
          const log = await fetch(`http://127.0.0.1:${port}/api/extras/webhook-deliveries/?brief=1`, { headers: { Authorization: `Token ${key.trim()}` } }).then((r) => r.text());
          throw new Error(`${err.message}; the receiver printed ${JSON.stringify(received.slice(0, 400))}; the deliveries: ${log.slice(0, 600)}`);
        });
        expect(received).toMatch(/X-Hook-Signature: [0-9a-f]{128}/);
        expect(received).toContain('"name": "Lab"');
      } finally {
        receiver.kill('SIGTERM');
        await new Promise((ok) => receiver.once('exit', ok));
      }
    } finally {
      server.kill('SIGTERM');
      await new Promise((ok) => server.once('exit', ok));
    }
  }, 2 * STARTS_WITHIN + 180_000);
});
