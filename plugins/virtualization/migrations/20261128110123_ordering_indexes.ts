import { Migration } from 'patchbay';

export class VirtualizationOrderingIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "virtualization_cluster_ordering" on "virtualization_cluster" ("name", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "virtualization_cluster_ordering";`);
  }
}
