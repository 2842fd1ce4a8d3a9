import { Migration } from 'patchbay';

export class DcimPathNodesUncheckedMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "dcim_cablepathnode" drop constraint "dcim_cablepathnode_path_id_foreign";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dcim_cablepathnode" add constraint "dcim_cablepathnode_path_id_foreign" foreign key ("path_id") references "dcim_cablepath" ("id") on update cascade on delete cascade;`);
  }
}
