import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@patchbay/embedded';
import { MANAGE, manage, manageOnTerminal, spawnManage, spawnNpm } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/server.js';
import { STARTS_WITHIN } from '../helpers/wait.js';

describe('manage', () => {
  it('prints usage for help, and usage with exit code 2 for an unknown command', async () => {
    const help = await manage(['help']);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    const [head, table, tail] = help.stdout.trimEnd().split('\n\n');
    expect(head).toBe('Usage: npm run -s manage -- <command> [arguments]');
    expect(tail).toBe('Each command answers --help with its options.');
    const [title, ...rows] = table.split('\n');
    expect(title).toBe('Commands:');
    // A table: every command's text starts in the same column.
    const column = rows.map((row) => row.search(/ {3}\S/) + 3);
    expect(new Set(column).size).toBe(1);
    expect(rows.map((row) => row.trim().split(' ')[0])).toEqual([
      'runserver', 'worker', 'webhook_receiver', 'migrate', 'showmigrations', 'makemigrations', 'startplugin', 'generate-demo', 'settings', 'help',
      // The apps' own commands, after the kernel's.
      'createsuperuser', 'changepassword', 'createtoken', 'housekeeping',
    ]);
    const unknown = await manage(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command: frobnicate');
    expect(unknown.stderr).toContain('Usage: npm run -s manage');
  });

  it('answers --help for every command with its usage, what it does and its options, without running it', async () => {
    const names = (await manage(['help'])).stdout.split('\n\n')[1].split('\n').slice(1).map((row) => row.trim().split(' ')[0]);
    expect(names).toHaveLength(14);
    // None runs: runserver would start, createsuperuser would ask on a terminal, generate-demo would build.
    const answers = await Promise.all(names.map((name) => manage([name, '--help'], { DATABASE_URL: 'postgres://nobody:x@127.0.0.1:1/none' })));
    answers.forEach((res, i) => {
      expect(res).toMatchObject({ code: 0, stderr: '' });
      const [usage, what, options] = res.stdout.split('\n\n');
      expect(usage).toMatch(new RegExp(`^Usage: npm run -s manage -- ${names[i]}( |$)`));
      expect(what.length).toBeGreaterThan(20);
      expect(options).toMatch(/^Options:\n(  \S.*\n)*  -h, --help +Show this help\.\n$/);
    });
    const token = answers[names.indexOf('createtoken')].stdout;
    for (const option of ['--username U', '--read-only', '--expires ISO', '--description D']) expect(token).toMatch(new RegExp(`\n  ${option} +\\S`));
    expect(answers[names.indexOf('generate-demo')].stdout).toMatch(/\n  --sites N +How many sites \(default 10, at most 10000\)\.\n/);
    expect((await manage(['help', 'createtoken'])).stdout).toBe(token);
    expect((await manage(['createtoken', '--username', 'x', '-h'])).stdout).toBe(token);
    expect(await manage(['help', 'frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command: frobnicate') });
    // A mistake in the arguments points to the command's help.
    expect(await manage(['createtoken', '--colour', 'red'])).toMatchObject({ code: 2, stderr: "Unknown option '--colour'\nSee: npm run -s manage -- createtoken --help\n" });
  }, 120_000);

  it('applies each plugin migration once', async () => {
    const env = { DATABASE_URL: await freshDatabase() };
    const first = await manage(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Applied kernel\/\d{14}_object_types/);
    expect(first.stdout).toMatch(/Applied tenancy\/\d{14}_initial/);
    // Each migration is reported once, on stdout only.
    expect(first.stdout.match(/tenancy\/\d{14}_initial/g)).toHaveLength(1);
    expect(first.stderr).not.toContain('Applied');
    const again = await manage(['migrate'], env);
    expect(again.stdout).toBe('No migrations to apply.\n');
    const shown = await manage(['showmigrations'], { ...env, PLUGINS: './examples/plugins/maintenance/index.ts' });
    expect(shown.stdout).toMatch(/\[X\] tenancy\/\d{14}_initial/);
    expect(shown.stdout).toMatch(/\[ \] maintenance\/\d{14}_initial/);
  }, 90_000);

  it('manages users and tokens', async () => {
    const env = { DATABASE_URL: await freshDatabase() };
    const noPassword = await manage(['createsuperuser', '--username', 'root'], env);
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toBe('--password is required when no terminal is attached\nSee: npm run -s manage -- createsuperuser --help\n');
    const weak = await manage(['createsuperuser', '--username', 'root', '--password', 'short'], env);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/\npassword: This password is too short\. It must contain at least 12 characters\.\n$/);
    expect((await manage(['createsuperuser', '--username', 'root', '--password', 'first password!'], env)).code).toBe(0);
    expect((await manage(['changepassword', '--username', 'root', '--password', 'second password!'], env)).stdout).toBe('Password changed for root.\n');
    const ghost = await manage(['changepassword', '--username', 'ghost', '--password', 'second password!'], env);
    expect(ghost.code).toBe(2);
    expect(ghost.stderr).toMatch(/(^|\n)No user called ghost\nSee: npm run -s manage -- changepassword --help\n$/);
    const token = await manage(['createtoken', '--username', 'root', '--read-only', '--expires', '2099-01-01T00:00:00Z'], env);
    expect(token.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    // Nothing about the queue or anything else a command does not use.
    expect(token.stderr).toBe('');
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query('select t.write_enabled, t.expires, u.password, u.is_superuser from users_token t join users_user u on u.id = t.user_id');
    await client.end();
    expect(rows).toEqual([{ write_enabled: false, expires: new Date('2099-01-01T00:00:00Z'), password: expect.stringMatching(/^scrypt\$/), is_superuser: true }]);
    expect((await manage(['createtoken', '--username', 'root', '--expires', 'soon'], env)).stderr).toMatch(/(^|\n)expires: Datetime has wrong format/);
    // Seven commands, each a process that boots the kernel (about 3.5 s each on this machine, more when it is busy).
  }, 90_000);

  it('asks for what is missing on a terminal, and again until the passwords agree and pass the rules', async () => {
    const env = { DATABASE_URL: await freshDatabase() };
    await manage(['migrate'], env);
    const typed = ['', 'typed', 'first password 1', 'other password 2', 'short', 'short', 'typed password 1', 'typed password 1'];
    const made = await manageOnTerminal(['createsuperuser'], typed, env);
    expect(made.code).toBe(0);
    expect(made.stdout).toBe(
      [
        'Username: ', 'Error: This field cannot be blank.', 'Username: typed', 'Password: ', 'Password (again): ', "Error: Your passwords didn't match.",
        'Password: ', 'Password (again): ', 'Error: This password is too short. It must contain at least 12 characters.', 'Password: ', 'Password (again): ',
        'Superuser typed created.', '',
      ].join('\n'),
    );
    const ended = await manageOnTerminal(['changepassword', '--username', 'typed'], ['first password 1', 'other password 2'], env);
    expect(ended.code).toBe(2);
    expect(ended.stdout).toContain('Aborted: the input ended.');
  }, 90_000);

  it('stops with exit code 1 and the message on a bad setting', async () => {
    const res = await manage(['runserver'], { PORT: 'x' });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('Cannot start: PORT (environment): expected an integer, got "x"\n');
  });

  it('stops on a mistake in a plugin\'s declaration with one line naming the plugin, before opening any database', async () => {
    const res = await manage(['runserver'], { PLUGINS: './test/fixtures/plugins/misdeclared.ts', DATABASE_URL: 'postgres://nobody:x@127.0.0.1:1/none' });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('Cannot start: plugin misdeclared: misdeclared.thing: brief field "label" is not a field of the model, nor a key of one\n');
  });

  it('names the cause and the setting to change in one line when it cannot start, leaving no database running', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-data-'));
    chmodSync(dataDir, 0o755);
    const lastLine = (text: string) => text.trimEnd().split('\n').pop();
    const busy = createServer().listen(0, '127.0.0.1');
    await new Promise((ok) => busy.once('listening', ok));
    const port = (busy.address() as { port: number }).port;
    const taken = await manage(['runserver'], { DATA_DIR: dataDir, PORT: String(port) });
    busy.close();
    expect(taken.code).toBe(1);
    expect(lastLine(taken.stderr)).toBe(`Cannot start: PORT: 127.0.0.1:${port} is already in use; stop the program using it or set PORT to a free port`);
    // Checked before the embedded PostgreSQL is created.
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);

    const unwritable = await manage(['migrate'], { DATA_DIR: '/dev/null/data' });
    expect(unwritable).toMatchObject({ code: 1, stdout: '' });
    expect(unwritable.stderr).toBe("Cannot start: DATA_DIR: cannot write to /dev/null/data (ENOTDIR: not a directory, mkdir '/dev/null/data'); set DATA_DIR to a writable directory\n");

    const unreachable = await manage(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: 'postgres://me:secret@127.0.0.1:1/db' });
    expect(unreachable.code).toBe(1);
    expect(lastLine(unreachable.stderr)).toBe('Cannot start: DATABASE_URL: cannot connect to postgres://me:***@127.0.0.1:1/db (connect ECONNREFUSED 127.0.0.1:1); check that PostgreSQL runs there and the URL is right');

    const broken = mkdtempSync(join(tmpdir(), 'patchbay-data-'));
    chmodSync(broken, 0o755);
    mkdirSync(join(broken, 'pg'), { mode: 0o777 });
    writeFileSync(join(broken, 'pg', 'PG_VERSION'), '99\n');
    const failed = await manage(['migrate'], { DATA_DIR: broken });
    expect(failed.code).toBe(1);
    expect(lastLine(failed.stderr)).toMatch(/^Cannot start: DATA_DIR: the embedded PostgreSQL in \S+ did not start \(.+\); check that directory, or set DATABASE_URL to use another PostgreSQL$/);
    // A URL that is not one is named as such, with an example; a password in a URL is never printed.
    const notUrl = await manage(['migrate'], { DATABASE_URL: 'not-a-url' });
    expect(notUrl).toMatchObject({ code: 1, stderr: 'Cannot start: DATABASE_URL: is not a URL; expected a PostgreSQL URL such as postgres://netbox:secret@db.example.com:5432/netbox\n' });
    const noDatabase = await manage(['migrate'], { DATABASE_URL: 'postgres://me:secret@db.example.com' });
    expect(noDatabase.stderr).toBe('Cannot start: DATABASE_URL: names no database; expected a PostgreSQL URL such as postgres://netbox:secret@db.example.com:5432/netbox; got postgres://me:***@db.example.com\n');
    expect((await manage(['migrate'], { REDIS_URL: 'localhost:6379' })).stderr).toMatch(/^Cannot start: REDIS_URL: must start with redis:\/\/ or rediss:\/\//);
    for (const run of [taken, unwritable, unreachable, failed, notUrl, noDatabase]) expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('runserver starts on an embedded PostgreSQL, keeps data across restarts and stops it on SIGTERM and on Ctrl-C', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-data-'));
    chmodSync(dataDir, 0o755);
    const su = await manage(['createsuperuser', '--username', 'root', '--password', 'a long enough secret', '--email', 'root@example.com'], { DATA_DIR: dataDir });
    expect(su).toMatchObject({ code: 0, stdout: 'Superuser root created.\n' });
    expect(su.stderr).toContain(`Started an embedded PostgreSQL (data in ${join(dataDir, 'pg')})`);
    const minted = await manage(['createtoken', '--username', 'root'], { DATA_DIR: dataDir });
    expect(minted.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    const auth = { Authorization: `Token ${minted.stdout.trim()}` };
    const run = async (signal: NodeJS.Signals, action: (base: string) => Promise<void>) => {
      const port = await freePort();
      // SIGINT as a terminal's Ctrl-C sends it: to the server's whole process group, its PostgreSQL included.
      const child = spawnManage(['runserver'], { DATA_DIR: dataDir, PORT: String(port) }, signal === 'SIGINT');
      let log = '';
      child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
      const deadline = Date.now() + STARTS_WITHIN;
      while (!log.includes('Patchbay listening')) {
        if (Date.now() > deadline || child.exitCode !== null) {
          // Not left running past the test (its database and port would outlive it).
          child.kill('SIGKILL');
          throw new Error(`runserver did not start:\n${log}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      await action(`http://127.0.0.1:${port}`);
      if (signal === 'SIGINT') process.kill(-child.pid!, signal);
      else child.kill(signal);
      const code = await new Promise((ok) => child.once('exit', ok));
      expect(code).toBe(0);
      expect(log).toContain(`${signal}: shutting down`);
      // A PostgreSQL that stopped with the server is not started again.
      expect(log).not.toContain('starting it again');
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
      // A command run beside the server uses the server's embedded PostgreSQL, and says so.
      const beside = await manage(['createtoken', '--username', 'root'], { DATA_DIR: dataDir });
      expect(beside.code).toBe(0);
      expect(beside.stderr).toContain(`Using the embedded PostgreSQL of the server running on ${join(dataDir, 'pg')}`);
      expect((await fetch(`${base}/api/status/`, { headers: { Authorization: `Token ${beside.stdout.trim().split('\n').pop()}` } })).status).toBe(200);
    });
    await run('SIGINT', async (base) => {
      const list = await (await fetch(`${base}/api/tenancy/tenants/`, { headers: auth })).json();
      expect(list.results.map((t: { name: string }) => t.name)).toEqual(['Kept']);
    });
  }, 2 * STARTS_WITHIN + 60_000);
});

describe('the npm start process', () => {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const until = async (what: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!what()) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
    return true;
  };
  /** Starts the server and waits for it to listen; returns the process and where PostgreSQL's lock file is. */
  async function started(spawnIt: () => ReturnType<typeof spawnNpm>, dataDir: string) {
    const child = spawnIt();
    let log = '';
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    if (!(await until(() => log.includes('Patchbay listening') || child.exitCode !== null, STARTS_WITHIN))) throw new Error(`did not start:\n${log}`);
    const lock = join(dataDir, 'pg', 'postmaster.pid');
    return { child, log: () => log, postmaster: Number(readFileSync(lock, 'utf8').split('\n')[0]), lock };
  }

  it('stops the server and its database on SIGTERM to npm, with no wrapper process in between', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-data-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const { child, log, postmaster, lock } = await started(() => spawnNpm(['start'], { DATA_DIR: dataDir, PORT: String(port) }), dataDir);
    // npm runs the server itself: no shell, no tsx wrapper.
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
    expect(children).toHaveLength(1);
    expect(readFileSync(`/proc/${children[0]}/cmdline`, 'utf8').split('\0').slice(0, MANAGE.length)).toEqual(['node', ...MANAGE.slice(1)]);
    expect((await fetch(`http://127.0.0.1:${port}/api/`)).status).toBe(200);
    child.kill('SIGTERM');
    await new Promise((ok) => child.once('exit', ok));
    expect(log()).toContain('SIGTERM: shutting down');
    expect(await until(() => !alive(Number(children[0])) && !alive(postmaster), 10_000)).toBe(true);
    expect(existsSync(lock)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/api/`)).rejects.toThrow();
  }, STARTS_WITHIN + 60_000);

  it('leaves no database running after the server is killed, and the next start recovers', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'patchbay-data-'));
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    const first = await started(() => spawnManage(['runserver'], { DATA_DIR: dataDir, PORT: String(port) }), dataDir);
    first.child.kill('SIGKILL');
    // Its watchdog stops the orphaned PostgreSQL within a second or two.
    expect(await until(() => !alive(first.postmaster), 10_000)).toBe(true);
    const second = await started(() => spawnManage(['runserver'], { DATA_DIR: dataDir, PORT: String(port) }), dataDir);
    expect((await fetch(`http://127.0.0.1:${port}/api/`)).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await new Promise((ok) => second.child.once('exit', ok))).toBe(0);
    expect(await until(() => !alive(second.postmaster), 10_000)).toBe(true);
  }, 2 * STARTS_WITHIN + 60_000);
});

