import { existsSync, mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../kernel/db/embedded.js';
import { manage, manageOnTerminal, spawnManage } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/server.js';

describe('manage', () => {
  it('prints usage for help, and usage with exit code 2 for an unknown command', async () => {
    const help = await manage(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run manage -- <command>/);
    for (const cmd of ['runserver', 'migrate', 'help']) expect(help.stdout).toContain(`  ${cmd}`);
    const unknown = await manage(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command: frobnicate');
    expect(unknown.stderr).toContain('Usage: npm run manage');
  });

  it('applies each plugin migration once', async () => {
    const env = { DATABASE_URL: await freshDatabase() };
    const first = await manage(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Applied kernel\/\d{14}_object_types/);
    expect(first.stdout).toMatch(/Applied tenancy\/\d{14}_initial/);
    const again = await manage(['migrate'], env);
    expect(again.stdout).toBe('No migrations to apply.\n');
    const shown = await manage(['showmigrations'], { ...env, PLUGINS: './examples/plugins/maintenance/index.ts' });
    expect(shown.stdout).toMatch(/\[X\] tenancy\/\d{14}_initial/);
    expect(shown.stdout).toMatch(/\[ \] maintenance\/\d{14}_initial/);
  });

  it('manages users and tokens', async () => {
    const env = { DATABASE_URL: await freshDatabase() };
    const noPassword = await manage(['createsuperuser', '--username', 'root'], env);
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toBe('--password is required when no terminal is attached\n');
    const weak = await manage(['createsuperuser', '--username', 'root', '--password', 'short'], env);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/\npassword: This password is too short\. It must contain at least 12 characters\.\n$/);
    expect((await manage(['createsuperuser', '--username', 'root', '--password', 'first password!'], env)).code).toBe(0);
    expect((await manage(['changepassword', '--username', 'root', '--password', 'second password!'], env)).stdout).toBe('Password changed for root.\n');
    const ghost = await manage(['changepassword', '--username', 'ghost', '--password', 'second password!'], env);
    expect(ghost.code).toBe(2);
    expect(ghost.stderr).toMatch(/(^|\n)No user called ghost\n$/);
    const token = await manage(['createtoken', '--username', 'root', '--read-only', '--expires', '2099-01-01T00:00:00Z'], env);
    expect(token.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query('select t.write_enabled, t.expires, u.password, u.is_superuser from users_token t join users_user u on u.id = t.user_id');
    await client.end();
    expect(rows).toEqual([{ write_enabled: false, expires: new Date('2099-01-01T00:00:00Z'), password: expect.stringMatching(/^scrypt\$/), is_superuser: true }]);
    expect((await manage(['createtoken', '--username', 'root', '--expires', 'soon'], env)).stderr).toMatch(/(^|\n)expires: Datetime has wrong format/);
  });

  it('prompts for the password when a terminal is attached', async () => {
    const env = { DATABASE_URL: await freshDatabase() };
    const made = await manageOnTerminal(['createsuperuser', '--username', 'typed'], 'typed password 1\ntyped password 1\n', env);
    expect(made.stdout).toContain('Password: ');
    expect(made.stdout).toContain('Password (again): ');
    expect(made.stdout).toContain('Superuser typed created.');
    const mismatch = await manageOnTerminal(['changepassword', '--username', 'typed'], 'first password 1\nother password 2\n', env);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stdout).toContain('The passwords do not match');
  });

  it('stops with exit code 1 and the message on a bad setting', async () => {
    const res = await manage(['runserver'], { PORT: 'x' });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('Configuration error: Setting PORT (environment): expected an integer, got "x"\n');
  });

  it('runserver starts on an embedded PostgreSQL, keeps data across restarts and stops it on SIGTERM and SIGINT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-data-'));
    chmodSync(dataDir, 0o755);
    const su = await manage(['createsuperuser', '--username', 'root', '--password', 'a long enough secret', '--email', 'root@example.com'], { DATA_DIR: dataDir });
    expect(su).toMatchObject({ code: 0, stdout: 'Superuser root created.\n' });
    const minted = await manage(['createtoken', '--username', 'root'], { DATA_DIR: dataDir });
    expect(minted.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    const auth = { Authorization: `Token ${minted.stdout.trim()}` };
    const run = async (signal: NodeJS.Signals, action: (base: string) => Promise<void>) => {
      const port = await freePort();
      const child = spawnManage(['runserver'], { DATA_DIR: dataDir, PORT: String(port) });
      let log = '';
      child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      const deadline = Date.now() + 30_000;
      while (!log.includes('Patchbay listening')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`runserver did not start:\n${log}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await action(`http://127.0.0.1:${port}`);
      child.kill(signal);
      const code = await new Promise((ok) => child.once('exit', ok));
      expect(code).toBe(0);
      expect(log).toContain(`${signal}: shutting down`);
      expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    };
    await run('SIGTERM', async (base) => {
      expect((await fetch(`${base}/api/status/`)).status).toBe(403);
      const status = await (await fetch(`${base}/api/status/`, { headers: auth })).json();
      expect(status.database.status).toBe('ok');
      const res = await fetch(`${base}/api/tenancy/tenants/`, {
        method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Kept', slug: 'kept' }),
      });
      expect(res.status).toBe(201);
      // A command run beside the server uses the server's embedded PostgreSQL.
      const beside = await manage(['createtoken', '--username', 'root'], { DATA_DIR: dataDir });
      expect(beside.code).toBe(0);
      expect((await fetch(`${base}/api/status/`, { headers: { Authorization: `Token ${beside.stdout.trim().split('\n').pop()}` } })).status).toBe(200);
    });
    await run('SIGINT', async (base) => {
      const list = await (await fetch(`${base}/api/tenancy/tenants/`, { headers: auth })).json();
      expect(list.results.map((t: { name: string }) => t.name)).toEqual(['Kept']);
    });
  }, 90_000);
});
