import { Migration } from 'patchbay';

export class ExtrasImageAttachmentsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "extras_imageattachment" ("id" serial primary key, "object_type_id" int not null, "object_id" integer not null, "name" varchar(50) not null default '', "image" varchar(200) not null, "image_width" integer not null, "image_height" integer not null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_imageattachment_object_id_index" on "extras_imageattachment" ("object_id");`);
    this.addSql(`create index "extras_imageattachment_object_type_id_idx" on "extras_imageattachment" ("object_type_id");`);
    this.addSql(`create index "extras_imageattachment_name_trgm" on "extras_imageattachment" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "extras_imageattachment_description_trgm" on "extras_imageattachment" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "extras_imageattachment" add constraint "extras_imageattachment_object_type_id_foreign" foreign key ("object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "extras_imageattachment" cascade;`);
  }
}
