import { Migration } from 'patchbay';

export class DcimDeviceTypeImagesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "dcim_devicetype" add column "front_image" varchar(100) null, add column "rear_image" varchar(100) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dcim_devicetype" drop column "front_image", drop column "rear_image";`);
  }
}
