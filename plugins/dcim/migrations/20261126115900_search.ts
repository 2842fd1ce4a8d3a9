import { Migration } from 'patchbay';

export class DcimSearchMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "dcim_inventoryitemtemplate_part_id_trgm" on "dcim_inventoryitemtemplate" using gin ("part_id" gin_trgm_ops);`);
    this.addSql(`create index "dcim_powerfeed_name_trgm" on "dcim_powerfeed" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "dcim_powerfeed_description_trgm" on "dcim_powerfeed" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "dcim_powerfeed_comments_trgm" on "dcim_powerfeed" using gin ("comments" gin_trgm_ops);`);
    this.addSql(`drop index "dcim_inventoryitem_label_trgm";`);
    this.addSql(`create index "dcim_inventoryitem_asset_tag_trgm" on "dcim_inventoryitem" using gin ("asset_tag" gin_trgm_ops);`);
    this.addSql(`create index "dcim_inventoryitem_serial_trgm" on "dcim_inventoryitem" using gin ("serial" gin_trgm_ops);`);
    this.addSql(`create index "dcim_inventoryitem_part_id_trgm" on "dcim_inventoryitem" using gin ("part_id" gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "dcim_inventoryitem_asset_tag_trgm";`);
    this.addSql(`drop index "dcim_inventoryitem_serial_trgm";`);
    this.addSql(`drop index "dcim_inventoryitem_part_id_trgm";`);
    this.addSql(`create index "dcim_inventoryitem_label_trgm" on "dcim_inventoryitem" using gin ("label" gin_trgm_ops);`);
    this.addSql(`drop index "dcim_inventoryitemtemplate_part_id_trgm";`);
    this.addSql(`drop index "dcim_powerfeed_name_trgm";`);
    this.addSql(`drop index "dcim_powerfeed_description_trgm";`);
    this.addSql(`drop index "dcim_powerfeed_comments_trgm";`);
  }
}
