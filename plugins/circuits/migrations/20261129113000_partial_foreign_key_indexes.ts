import { Migration } from 'patchbay';

/**
 * A nullable foreign key's index leaves out its nulls, and one that leads a unique is dropped (the unique's index
 * serves it): inserts of rows whose keys are null skip those indexes.
 */
export class CircuitsPartialForeignKeyIndexesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "circuits_provideraccount_provider_id_idx";`);
    this.addSql(`drop index "circuits_providernetwork_provider_id_idx";`);
    this.addSql(`drop index "circuits_circuit_provider_id_idx";`);
    this.addSql(`drop index "circuits_circuit_provider_account_id_idx";`);
    this.addSql(`drop index "circuits_circuit_tenant_id_idx";`);
    this.addSql(`create index "circuits_circuit_tenant_id_idx" on "circuits_circuit" ("tenant_id") where "tenant_id" is not null;`);
    this.addSql(`drop index "circuits_circuittermination_circuit_id_idx";`);
    this.addSql(`drop index "circuits_circuittermination_termination_type_id_idx";`);
    this.addSql(`create index "circuits_circuittermination_termination_type_id_idx" on "circuits_circuittermination" ("termination_type_id") where "termination_type_id" is not null;`);
    this.addSql(`drop index "circuits_circuittermination_cable_id_idx";`);
    this.addSql(`create index "circuits_circuittermination_cable_id_idx" on "circuits_circuittermination" ("cable_id") where "cable_id" is not null;`);
    this.addSql(`drop index "circuits_circuitgroup_tenant_id_idx";`);
    this.addSql(`create index "circuits_circuitgroup_tenant_id_idx" on "circuits_circuitgroup" ("tenant_id") where "tenant_id" is not null;`);
    this.addSql(`drop index "circuits_circuitgroupassignment_member_type_id_idx";`);
    this.addSql(`drop index "circuits_virtualcircuit_provider_network_id_idx";`);
    this.addSql(`drop index "circuits_virtualcircuit_provider_account_id_idx";`);
    this.addSql(`drop index "circuits_virtualcircuit_tenant_id_idx";`);
    this.addSql(`create index "circuits_virtualcircuit_tenant_id_idx" on "circuits_virtualcircuit" ("tenant_id") where "tenant_id" is not null;`);
    this.addSql(`drop index "circuits_virtualcircuittermination_interface_id_idx";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "circuits_provideraccount_provider_id_idx" on "circuits_provideraccount" ("provider_id");`);
    this.addSql(`create index "circuits_providernetwork_provider_id_idx" on "circuits_providernetwork" ("provider_id");`);
    this.addSql(`create index "circuits_circuit_provider_id_idx" on "circuits_circuit" ("provider_id");`);
    this.addSql(`create index "circuits_circuit_provider_account_id_idx" on "circuits_circuit" ("provider_account_id");`);
    this.addSql(`drop index "circuits_circuit_tenant_id_idx";`);
    this.addSql(`create index "circuits_circuit_tenant_id_idx" on "circuits_circuit" ("tenant_id");`);
    this.addSql(`create index "circuits_circuittermination_circuit_id_idx" on "circuits_circuittermination" ("circuit_id");`);
    this.addSql(`drop index "circuits_circuittermination_termination_type_id_idx";`);
    this.addSql(`create index "circuits_circuittermination_termination_type_id_idx" on "circuits_circuittermination" ("termination_type_id");`);
    this.addSql(`drop index "circuits_circuittermination_cable_id_idx";`);
    this.addSql(`create index "circuits_circuittermination_cable_id_idx" on "circuits_circuittermination" ("cable_id");`);
    this.addSql(`drop index "circuits_circuitgroup_tenant_id_idx";`);
    this.addSql(`create index "circuits_circuitgroup_tenant_id_idx" on "circuits_circuitgroup" ("tenant_id");`);
    this.addSql(`create index "circuits_circuitgroupassignment_member_type_id_idx" on "circuits_circuitgroupassignment" ("member_type_id");`);
    this.addSql(`create index "circuits_virtualcircuit_provider_network_id_idx" on "circuits_virtualcircuit" ("provider_network_id");`);
    this.addSql(`create index "circuits_virtualcircuit_provider_account_id_idx" on "circuits_virtualcircuit" ("provider_account_id");`);
    this.addSql(`drop index "circuits_virtualcircuit_tenant_id_idx";`);
    this.addSql(`create index "circuits_virtualcircuit_tenant_id_idx" on "circuits_virtualcircuit" ("tenant_id");`);
    this.addSql(`create index "circuits_virtualcircuittermination_interface_id_idx" on "circuits_virtualcircuittermination" ("interface_id");`);
  }
}
