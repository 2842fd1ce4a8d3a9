import { Migration } from '@mikro-orm/migrations';

/** The transactional outbox: the events of committed writes not yet handed to their receivers (`json`: key order kept). */
export class EventOutboxMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table core_eventoutbox (id bigserial primary key, events json not null, created timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table core_eventoutbox;`);
  }
}
