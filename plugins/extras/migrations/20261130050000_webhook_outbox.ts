import { Migration } from 'patchbay';

/**
 * The deliveries of committed writes not recorded yet: one row per delivery job, written in the write's
 * transaction, with the ids its deliveries will have (drawn from their sequence) and their rows as deflated JSON
 * (stored as it is: PostgreSQL would try to compress it again). The job records them as it starts.
 */
export class ExtrasWebhookOutboxMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "extras_webhookoutbox" ("id" bigserial primary key, "job" varchar(40) not null, "ids" integer[] not null, "deliveries" bytea not null, "created" timestamptz not null default now());`);
    this.addSql(`alter table "extras_webhookoutbox" alter column "deliveries" set storage external;`);
    this.addSql(`create index "extras_webhookoutbox_job_idx" on "extras_webhookoutbox" ("job");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "extras_webhookoutbox";`);
  }
}
