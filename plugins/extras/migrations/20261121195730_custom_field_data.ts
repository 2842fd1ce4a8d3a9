import { Migration } from 'patchbay';

/** Custom field values of every object of every model, one JSON document per object. */
export class ExtrasCustomFieldDataMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "extras_customfielddata" ("object_type_id" int not null references "core_objecttype" ("id"), "object_id" int not null, "data" jsonb not null default '{}', constraint "extras_customfielddata_pkey" primary key ("object_type_id", "object_id"));`);
    this.addSql(`create index "extras_customfielddata_data_idx" on "extras_customfielddata" using gin ("data" jsonb_path_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "extras_customfielddata" cascade;`);
  }
}
