import { Migration } from 'patchbay';

export class CircuitsCablingMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "circuits_circuittermination" add column "cable_id" int null, add column "cable_end" varchar(1) null;`);
    this.addSql(`alter table "circuits_circuittermination" add constraint "circuits_circuittermination_cable_id_foreign" foreign key ("cable_id") references "dcim_cable" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "circuits_circuittermination_cable_id_idx" on "circuits_circuittermination" ("cable_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "circuits_circuittermination" drop constraint "circuits_circuittermination_cable_id_foreign";`);
    this.addSql(`drop index "circuits_circuittermination_cable_id_idx";`);
    this.addSql(`alter table "circuits_circuittermination" drop column "cable_id", drop column "cable_end";`);
  }
}
