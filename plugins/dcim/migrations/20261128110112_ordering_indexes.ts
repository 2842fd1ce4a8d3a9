import { Migration } from 'patchbay';

export class DcimOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "dcim_macaddress_ordering" on "dcim_macaddress" ("mac_address", "id");`);
    this.addSql(`create index "dcim_platform_ordering" on "dcim_platform" ("name", "id");`);
    this.addSql(`create index "dcim_devicerole_ordering" on "dcim_devicerole" ("name", "id");`);
    this.addSql(`create index "dcim_rackreservation_ordering" on "dcim_rackreservation" ("created", "id");`);
    this.addSql(`create index "dcim_virtualdevicecontext_ordering" on "dcim_virtualdevicecontext" ("name", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "dcim_devicerole_ordering";`);
    this.addSql(`drop index "dcim_macaddress_ordering";`);
    this.addSql(`drop index "dcim_platform_ordering";`);
    this.addSql(`drop index "dcim_rackreservation_ordering";`);
    this.addSql(`drop index "dcim_virtualdevicecontext_ordering";`);
  }
}
