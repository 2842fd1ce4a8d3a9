import { Migration } from '@mikro-orm/migrations';

/**
 * The background queue without Redis: one row per job, claimed by one process at a time (`FOR UPDATE SKIP LOCKED`),
 * its attempts counted as they start and its lock renewed while it runs; and the processes working it.
 */
export class QueueMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table core_queuejob (
      id text primary key,
      seq bigserial not null,
      name text not null,
      description text not null,
      data jsonb,
      status text not null default 'queued',
      attempts integer not null default 1,
      attempts_made integer not null default 0,
      backoff_ms integer not null default 0,
      run_at timestamptz not null default now(),
      created timestamptz not null default now(),
      enqueued timestamptz not null default now(),
      started timestamptz,
      ended timestamptz,
      worker text,
      locked_until timestamptz,
      errors jsonb not null default '[]',
      result jsonb
    );`);
    this.addSql(`create index core_queuejob_ready on core_queuejob (run_at, seq) where status = 'queued';`);
    this.addSql(`create index core_queuejob_locked on core_queuejob (locked_until) where status = 'started';`);
    this.addSql(`create index core_queuejob_status on core_queuejob (status, seq);`);
    this.addSql(`create table core_queueworker (name text primary key, state jsonb not null, seen timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table core_queueworker;`);
    this.addSql(`drop table core_queuejob;`);
  }
}
