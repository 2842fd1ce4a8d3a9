import { Migration } from 'patchbay';

/** Which tags each object carries, for every tagged model (not a model of its own: written through `tags`). */
export class ExtrasTaggedItemsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "extras_taggeditem" ("id" serial primary key, "tag_id" int not null references "extras_tag" ("id") on update cascade on delete cascade, "object_type_id" int not null references "core_objecttype" ("id"), "object_id" int not null, constraint "extras_taggeditem_unique" unique ("object_type_id", "object_id", "tag_id"));`);
    this.addSql(`create index "extras_taggeditem_tag_id_idx" on "extras_taggeditem" ("tag_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "extras_taggeditem" cascade;`);
  }
}
