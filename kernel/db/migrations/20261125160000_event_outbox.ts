import { Migration } from '@mikro-orm/migrations';

/** The transactional outbox: the events of committed writes that are not yet handed to their receivers. */
export class EventOutboxMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table core_eventoutbox (id bigserial primary key, events jsonb not null, created timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table core_eventoutbox;`);
  }
}
