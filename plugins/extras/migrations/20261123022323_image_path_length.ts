import { Migration } from 'patchbay';

export class ExtrasImagePathLengthMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "extras_imageattachment" alter column "image" type varchar(100) using ("image"::varchar(100));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "extras_imageattachment" alter column "image" type varchar(200) using ("image"::varchar(200));`);
  }
}
