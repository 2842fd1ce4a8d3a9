import type { Db } from '../../kernel/base/types.js';

/**
 * Fills the circuits tables with `n` rows each, every relation set, straight in SQL: provider i with account i,
 * network i and ASN i; circuit i of theirs from site i (A) to network i (Z), in group i; virtual circuit i on
 * network i ending on interface i. Expects seedTenancy's, seedDcim's and seedIpam's rows.
 */
export async function seedCircuits(db: Db, n: number): Promise<void> {
  const now = 'now(), now()';
  const type = (app: string, model: string) => `(select id from core_objecttype where app_label = '${app}' and model = '${model}')`;
  await db.raw(`insert into circuits_provider (name, slug, description, comments, created, last_updated) select 'Provider ' || i, 'provider-' || i, '', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw('insert into circuits_provider_asns (provider_id, asn_id) select i, i from generate_series(1, ?) i', [n]);
  await db.raw(`insert into circuits_provideraccount (provider_id, name, account, description, comments, created, last_updated)
    select i, 'Account ' || i, 'A-' || i, '', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into circuits_providernetwork (provider_id, name, service_id, description, comments, created, last_updated)
    select i, 'Network ' || i, 'S-' || i, '', '', ${now} from generate_series(1, ?) i`, [n]);
  for (const table of ['circuits_circuittype', 'circuits_virtualcircuittype']) {
    await db.raw(`insert into ${table} (name, slug, color, description, created, last_updated) select 'Type ' || i, 'type-' || i, 'ff0000', '', ${now} from generate_series(1, ?) i`, [n]);
  }
  await db.raw(`insert into circuits_circuit (cid, provider_id, provider_account_id, type_id, status, tenant_id, commit_rate, description, distance, distance_unit, comments, created, last_updated)
    select 'C-' || i, i, i, i, 'active', i, 1000, '', 10, 'km', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into circuits_circuittermination (circuit_id, term_side, termination_type_id, termination_id, port_speed, upstream_speed, xconnect_id, pp_info,
      description, mark_connected, created, last_updated)
    select i, s.side, case when s.side = 'A' then ${type('dcim', 'site')} else ${type('circuits', 'providernetwork')} end, i, 1000, 1000, 'XC-' || i, '', '', false, ${now}
    from generate_series(1, ?) i cross join (values ('A'), ('Z')) s(side)`, [n]);
  await db.raw(`insert into circuits_circuitgroup (name, slug, description, tenant_id, created, last_updated) select 'Group ' || i, 'group-' || i, '', i, ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into circuits_circuitgroupassignment (group_id, member_type_id, member_id, priority, created, last_updated)
    select i, ${type('circuits', 'circuit')}, i, 'primary', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into circuits_virtualcircuit (cid, provider_network_id, provider_account_id, type_id, status, tenant_id, description, comments, created, last_updated)
    select 'VC-' || i, i, i, i, 'active', i, '', '', ${now} from generate_series(1, ?) i`, [n]);
  await db.raw(`insert into circuits_virtualcircuittermination (virtual_circuit_id, role, interface_id, description, created, last_updated)
    select i, 'peer', i, '', ${now} from generate_series(1, ?) i`, [n]);
}
