import { Migration } from 'patchbay';

export class CircuitsSearchMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "circuits_circuit_cid_trgm" on "circuits_circuit" using gin ("cid" gin_trgm_ops);`);
    this.addSql(`create index "circuits_circuit_description_trgm" on "circuits_circuit" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "circuits_circuit_comments_trgm" on "circuits_circuit" using gin ("comments" gin_trgm_ops);`);
    this.addSql(`create index "circuits_circuittermination_xconnect_id_trgm" on "circuits_circuittermination" using gin ("xconnect_id" gin_trgm_ops);`);
    this.addSql(`create index "circuits_circuittermination_pp_info_trgm" on "circuits_circuittermination" using gin ("pp_info" gin_trgm_ops);`);
    this.addSql(`create index "circuits_circuittermination_description_trgm" on "circuits_circuittermination" using gin ("description" gin_trgm_ops);`);
    this.addSql(`create index "circuits_virtualcircuittermination_description_trgm" on "circuits_virtualcircuittermination" using gin ("description" gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "circuits_circuit_cid_trgm";`);
    this.addSql(`drop index "circuits_circuit_description_trgm";`);
    this.addSql(`drop index "circuits_circuit_comments_trgm";`);
    this.addSql(`drop index "circuits_circuittermination_xconnect_id_trgm";`);
    this.addSql(`drop index "circuits_circuittermination_pp_info_trgm";`);
    this.addSql(`drop index "circuits_circuittermination_description_trgm";`);
    this.addSql(`drop index "circuits_virtualcircuittermination_description_trgm";`);
  }
}
