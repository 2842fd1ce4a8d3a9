import { Migration } from 'patchbay';

export class ExtrasWebhookDeliveryJobsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "extras_webhookdelivery" add column "job" varchar(40) not null default '', add column "sending" integer null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "extras_webhookdelivery" drop column "job", drop column "sending";`);
  }
}
