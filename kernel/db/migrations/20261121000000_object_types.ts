import { Migration } from '@mikro-orm/migrations';

export class ObjectTypesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "core_objecttype" ("id" serial primary key, "app_label" varchar(100) not null, "model" varchar(100) not null);`);
    this.addSql(`alter table "core_objecttype" add constraint "core_objecttype_app_label_model_key" unique ("app_label", "model");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "core_objecttype" cascade;`);
  }
}
