import type { Db, DemoPart, DemoStep, ModelRegistry } from 'patchbay';
import { DEMO_DEVICES, demoCables, demoPaths, demoSites } from '../../dcim/api.js';

/** Rows a statement inserted (what a previous run made is skipped). */
async function inserted(db: Db, sql: string, bindings: readonly unknown[] = []): Promise<number> {
  const result = (await db.raw(sql, bindings as never[])) as { rowCount: number | null };
  return result.rowCount ?? 0;
}

/** The demo sites (dcim's `dc-0001`…) with their number `n`. */
const SITES = `select id, slug, substring(slug from 4)::int as n from dcim_site where slug = any(?)`;
const type = (app: string, model: string) => `(select id from core_objecttype where app_label = '${app}' and model = '${model}')`;

/**
 * The circuits demo data: two transit providers, each with an account and a backbone network; per site an internet
 * circuit (the providers in turn) from the site (A) to the provider's backbone (Z), all in one circuit group, its A
 * end cabled to the site's first core router. Set-based; a rerun adds only what is missing.
 */
export function circuitsDemoSteps(registry: ModelRegistry, part: DemoPart): DemoStep[] {
  const sites = demoSites(part);
  const providers = `(values (0, 'Lumen', 'lumen'), (1, 'Zayo', 'zayo')) p(k, name, slug)`;
  const shared: DemoStep[] = [
    {
      label: 'Providers, accounts and networks',
      run: async (db) =>
        (await inserted(db, `insert into circuits_provider (name, slug, description, comments, created, last_updated)
          select p.name, p.slug, '', '', now(), now() from ${providers} on conflict do nothing`)) +
        (await inserted(db, `insert into circuits_provideraccount (provider_id, name, account, description, comments, created, last_updated)
          select v.id, '', 'ACCT-' || upper(v.slug), '', '', now(), now() from circuits_provider v join ${providers} on p.slug = v.slug on conflict do nothing`)) +
        (await inserted(db, `insert into circuits_providernetwork (provider_id, name, service_id, description, comments, created, last_updated)
          select v.id, v.name || ' backbone', '', '', '', now(), now() from circuits_provider v join ${providers} on p.slug = v.slug on conflict do nothing`)) +
        (await inserted(db, `insert into circuits_circuittype (name, slug, color, description, created, last_updated)
          values ('Internet transit', 'internet-transit', '', '', now(), now()) on conflict do nothing`)) +
        (await inserted(db, `insert into circuits_circuitgroup (name, slug, description, created, last_updated)
          values ('Internet', 'internet', '', now(), now()) on conflict do nothing`)),
    },
  ];
  return [
    ...(part.first === 1 ? shared : []),
    {
      label: 'Circuits and their terminations',
      run: async (db) => {
        const circuits = await inserted(db, `insert into circuits_circuit (cid, provider_id, provider_account_id, type_id, status, commit_rate, description, comments, created, last_updated)
          select 'INET-' || s.slug, v.id, a.id, (select id from circuits_circuittype where slug = 'internet-transit'), 'active', 1000000, '', '', now(), now()
          from (${SITES}) s join ${providers} on p.k = s.n % 2 join circuits_provider v on v.slug = p.slug join circuits_provideraccount a on a.provider_id = v.id
          on conflict do nothing`, [sites]);
        const terminations = await inserted(db, `insert into circuits_circuittermination (circuit_id, term_side, termination_type_id, termination_id, port_speed, upstream_speed,
            xconnect_id, pp_info, description, mark_connected, created, last_updated)
          select c.id, t.side, case when t.side = 'A' then ${type('dcim', 'site')} else ${type('circuits', 'providernetwork')} end,
            case when t.side = 'A' then s.id else (select n.id from circuits_providernetwork n where n.provider_id = c.provider_id) end,
            1000000, 1000000, '', '', '', false, now(), now()
          from (${SITES}) s join circuits_circuit c on c.cid = 'INET-' || s.slug cross join (values ('A'), ('Z')) t(side)
          on conflict do nothing`, [sites]);
        const grouped = await inserted(db, `insert into circuits_circuitgroupassignment (group_id, member_type_id, member_id, priority, created, last_updated)
          select (select id from circuits_circuitgroup where slug = 'internet'), ${type('circuits', 'circuit')}, c.id, 'primary', now(), now()
          from (${SITES}) s join circuits_circuit c on c.cid = 'INET-' || s.slug on conflict do nothing`, [sites]);
        return circuits + terminations + grouped;
      },
    },
    {
      label: 'Circuits cabled to the core routers',
      run: async (db) =>
        (await demoCables(db, 'dcim.interface', 'circuits.circuittermination', `with dev as (${DEMO_DEVICES})
          select i.id as a_id, t.id as b_id from dev d join dcim_interface i on i.device_id = d.id and i.name = 'et-1/0/0'
          join dcim_site s on s.id = d.site_id join circuits_circuit c on c.cid = 'INET-' || s.slug
          join circuits_circuittermination t on t.circuit_id = c.id and t.term_side = 'A'
          where d.slot = 0 and d.block = 0`, [sites], 'smf-os2')) + (await demoPaths(db, registry, sites)),
    },
  ];
}
