import { Migration } from 'patchbay';

export class ExtrasWebhooksEventRulesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "extras_eventrule" ("id" serial primary key, "object_types" varchar(100)[] not null, "name" varchar(150) not null, "enabled" boolean not null default true, "event_types" varchar(50)[] not null, "conditions" jsonb null, "action_type" varchar(50) not null default 'webhook', "action_object_type_id" int not null, "action_object_id" integer not null, "action_data" jsonb null, "description" varchar(200) not null default '', "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_eventrule_action_object_id_index" on "extras_eventrule" ("action_object_id");`);
    this.addSql(`create index "extras_eventrule_action_object_type_id_idx" on "extras_eventrule" ("action_object_type_id");`);
    this.addSql(`create index "extras_eventrule_name_trgm" on "extras_eventrule" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "extras_eventrule_description_trgm" on "extras_eventrule" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "extras_eventrule" add constraint "extras_eventrule_name_uniq0" unique ("name");`);
    this.addSql(`create table "extras_webhook" ("id" serial primary key, "name" varchar(150) not null, "description" varchar(200) not null default '', "payload_url" varchar(500) not null, "http_method" varchar(50) not null default 'POST', "http_content_type" varchar(100) not null default 'application/json', "additional_headers" text not null default '', "body_template" text not null default '', "secret" varchar(255) not null default '', "ssl_verification" boolean not null default true, "ca_file_path" varchar(4096) null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_webhook_name_trgm" on "extras_webhook" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "extras_webhook_description_trgm" on "extras_webhook" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "extras_webhook_payload_url_trgm" on "extras_webhook" using gin ("payload_url" gin_trgm_ops);`);
    this.addSql(`alter table "extras_webhook" add constraint "extras_webhook_name_uniq0" unique ("name");`);
    this.addSql(`create table "extras_webhookdelivery" ("id" serial primary key, "webhook_id" int not null, "event_rule_id" int null, "event" varchar(50) not null, "object_type_id" int not null, "object_id" integer not null, "request_id" varchar(36) not null default '', "status" varchar(50) not null default 'pending', "attempts" jsonb not null, "completed" timestamptz null, "context" json not null, "created" timestamptz null, "last_updated" timestamptz null);`);
    this.addSql(`create index "extras_webhookdelivery_object_id_index" on "extras_webhookdelivery" ("object_id");`);
    this.addSql(`create index "extras_webhookdelivery_webhook_id_idx" on "extras_webhookdelivery" ("webhook_id");`);
    this.addSql(`create index "extras_webhookdelivery_event_rule_id_idx" on "extras_webhookdelivery" ("event_rule_id");`);
    this.addSql(`create index "extras_webhookdelivery_object_type_id_idx" on "extras_webhookdelivery" ("object_type_id");`);
    this.addSql(`alter table "extras_eventrule" add constraint "extras_eventrule_action_object_type_id_foreign" foreign key ("action_object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "extras_webhookdelivery" add constraint "extras_webhookdelivery_webhook_id_foreign" foreign key ("webhook_id") references "extras_webhook" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "extras_webhookdelivery" add constraint "extras_webhookdelivery_event_rule_id_foreign" foreign key ("event_rule_id") references "extras_eventrule" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "extras_webhookdelivery" add constraint "extras_webhookdelivery_object_type_id_foreign" foreign key ("object_type_id") references "core_objecttype" ("id") on update cascade on delete no action;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "extras_webhookdelivery" drop constraint "extras_webhookdelivery_event_rule_id_foreign";`);
    this.addSql(`alter table "extras_webhookdelivery" drop constraint "extras_webhookdelivery_webhook_id_foreign";`);
    this.addSql(`drop table if exists "extras_webhookdelivery" cascade;`);
    this.addSql(`drop table if exists "extras_webhook" cascade;`);
    this.addSql(`drop table if exists "extras_eventrule" cascade;`);
  }
}
