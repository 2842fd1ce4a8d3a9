import { Migration } from 'patchbay';

/**
 * A nullable foreign key's index leaves out its nulls, and one that leads a unique is dropped (the unique's index
 * serves it): inserts of rows whose keys are null skip those indexes.
 */
export class ExtrasPartialForeignKeyIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "dcim_devicerole_config_template_id_idx";`);
    this.addSql(`create index "dcim_devicerole_config_template_id_idx" on "dcim_devicerole" ("config_template_id") where "config_template_id" is not null;`);
    this.addSql(`drop index "dcim_platform_config_template_id_idx";`);
    this.addSql(`create index "dcim_platform_config_template_id_idx" on "dcim_platform" ("config_template_id") where "config_template_id" is not null;`);
    this.addSql(`drop index "dcim_device_config_template_id_idx";`);
    this.addSql(`create index "dcim_device_config_template_id_idx" on "dcim_device" ("config_template_id") where "config_template_id" is not null;`);
    this.addSql(`drop index "virtualization_virtualmachine_config_template_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_config_template_id_idx" on "virtualization_virtualmachine" ("config_template_id") where "config_template_id" is not null;`);
    this.addSql(`drop index "extras_objectchange_user_id_idx";`);
    this.addSql(`create index "extras_objectchange_user_id_idx" on "extras_objectchange" ("user_id") where "user_id" is not null;`);
    this.addSql(`drop index "extras_objectchange_related_object_type_id_idx";`);
    this.addSql(`create index "extras_objectchange_related_object_type_id_idx" on "extras_objectchange" ("related_object_type_id") where "related_object_type_id" is not null;`);
    this.addSql(`drop index "extras_customfield_choice_set_id_idx";`);
    this.addSql(`create index "extras_customfield_choice_set_id_idx" on "extras_customfield" ("choice_set_id") where "choice_set_id" is not null;`);
    this.addSql(`drop index "extras_journalentry_created_by_id_idx";`);
    this.addSql(`create index "extras_journalentry_created_by_id_idx" on "extras_journalentry" ("created_by_id") where "created_by_id" is not null;`);
    this.addSql(`drop index "extras_configcontext_profile_id_idx";`);
    this.addSql(`create index "extras_configcontext_profile_id_idx" on "extras_configcontext" ("profile_id") where "profile_id" is not null;`);
    this.addSql(`drop index "extras_webhookdelivery_event_rule_id_idx";`);
    this.addSql(`create index "extras_webhookdelivery_event_rule_id_idx" on "extras_webhookdelivery" ("event_rule_id") where "event_rule_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "dcim_devicerole_config_template_id_idx";`);
    this.addSql(`create index "dcim_devicerole_config_template_id_idx" on "dcim_devicerole" ("config_template_id");`);
    this.addSql(`drop index "dcim_platform_config_template_id_idx";`);
    this.addSql(`create index "dcim_platform_config_template_id_idx" on "dcim_platform" ("config_template_id");`);
    this.addSql(`drop index "dcim_device_config_template_id_idx";`);
    this.addSql(`create index "dcim_device_config_template_id_idx" on "dcim_device" ("config_template_id");`);
    this.addSql(`drop index "virtualization_virtualmachine_config_template_id_idx";`);
    this.addSql(`create index "virtualization_virtualmachine_config_template_id_idx" on "virtualization_virtualmachine" ("config_template_id");`);
    this.addSql(`drop index "extras_objectchange_user_id_idx";`);
    this.addSql(`create index "extras_objectchange_user_id_idx" on "extras_objectchange" ("user_id");`);
    this.addSql(`drop index "extras_objectchange_related_object_type_id_idx";`);
    this.addSql(`create index "extras_objectchange_related_object_type_id_idx" on "extras_objectchange" ("related_object_type_id");`);
    this.addSql(`drop index "extras_customfield_choice_set_id_idx";`);
    this.addSql(`create index "extras_customfield_choice_set_id_idx" on "extras_customfield" ("choice_set_id");`);
    this.addSql(`drop index "extras_journalentry_created_by_id_idx";`);
    this.addSql(`create index "extras_journalentry_created_by_id_idx" on "extras_journalentry" ("created_by_id");`);
    this.addSql(`drop index "extras_configcontext_profile_id_idx";`);
    this.addSql(`create index "extras_configcontext_profile_id_idx" on "extras_configcontext" ("profile_id");`);
    this.addSql(`drop index "extras_webhookdelivery_event_rule_id_idx";`);
    this.addSql(`create index "extras_webhookdelivery_event_rule_id_idx" on "extras_webhookdelivery" ("event_rule_id");`);
  }
}
