import { Migration } from '@mikro-orm/migrations';

/**
 * How many rows each model's table holds, kept by statement triggers in the same transaction as every insert,
 * delete and truncate: a list's total reads a few rows here rather than counting the table. Each statement adds
 * a delta (concurrent writers never wait on one counter row); `compactRowCounts` folds them. Counters are kept by the
table's oid, which a rename keeps. Which tables get the
 * triggers is the kernel's work at start (`ensureRowCounts`), as models come and go with plugins.
 */
export class RowCountsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table patchbay_row_count (table_oid oid not null, delta bigint not null);`);
    this.addSql(`create index patchbay_row_count_table on patchbay_row_count (table_oid);`);
    this.addSql(`create function patchbay_count_insert() returns trigger language plpgsql as $$
begin
  insert into patchbay_row_count select TG_RELID, count(*) from patchbay_rows having count(*) > 0;
  return null;
end $$;`);
    this.addSql(`create function patchbay_count_delete() returns trigger language plpgsql as $$
begin
  insert into patchbay_row_count select TG_RELID, -count(*) from patchbay_rows having count(*) > 0;
  return null;
end $$;`);
    this.addSql(`create function patchbay_count_truncate() returns trigger language plpgsql as $$
begin
  delete from patchbay_row_count where table_oid = TG_RELID;
  insert into patchbay_row_count values (TG_RELID, 0);
  return null;
end $$;`);
  }
}
