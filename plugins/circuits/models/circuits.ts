import { ValidationError, defineModel, f, loadDisplays, not, parseWholeNumber, type FilterNode, type QueryFilter, type RenderContext, type Row } from 'patchbay';
import { placeFilters } from '../../ipam/api.js';
import { CircuitStatus, DistanceUnit, TermSide } from '../choices.js';
import { TerminationSide } from '../fields/termination-side.js';
import { cabled } from '../../dcim/api.js';
import { circuitTerminationRole, retraceCircuits } from '../rules/cabling.js';

/** Where a circuit may terminate. */
const TERMINATION_TARGETS = ['dcim.region', 'dcim.sitegroup', 'dcim.site', 'dcim.location', 'circuits.providernetwork'];

/** `?provider_network_id=` on rows whose `field` relation may name a provider network (`through`: their circuit's terminations). */
function providerNetworkFilter(circuitTerminations: boolean): QueryFilter {
  return {
    suffixes: ['n'],
    build: (suffix, values) => {
      const ids = values.map(parseWholeNumber);
      const node: FilterNode = {
        op: 'sql',
        condition: (qb, alias, _m, db) => {
          const terminations = db('circuits_circuittermination')
            .whereIn('termination_type_id', db('core_objecttype').select('id').where({ app_label: 'circuits', model: 'providernetwork' }))
            .whereIn('termination_id', ids);
          if (circuitTerminations) qb.whereIn(`${alias}.id`, terminations.select('circuit_id'));
          else qb.whereIn(`${alias}.id`, terminations.select('id'));
        },
      };
      return suffix === 'n' ? not(node) : node;
    },
  };
}

/** A circuit: a provider's service, with an A and a Z termination. */
export const Circuit = defineModel('circuits.circuit', {
  path: 'circuits',
  fields: {
    cid: f.string({ max: 100, label: 'Circuit ID' }),
    provider: f.fk('circuits.provider', { onDelete: 'protect', countAs: 'circuit_count', related: 'circuits' }),
    provider_account: f.fk('circuits.provideraccount', { nullable: true, onDelete: 'protect', filterBy: 'account', related: 'circuits' }),
    type: f.fk('circuits.circuittype', { onDelete: 'protect', countAs: 'circuit_count', related: 'circuits' }),
    status: f.choice(CircuitStatus, { default: 'active' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', countAs: 'circuit_count', related: 'circuits' }),
    install_date: f.date({ nullable: true, label: 'Installed' }),
    termination_date: f.date({ nullable: true, label: 'Terminates' }),
    commit_rate: f.integer({ min: 0, max: 2147483647, nullable: true, label: 'Commit rate (Kbps)' }),
    description: f.string({ max: 200, blank: true }),
    distance: f.decimal({ digits: 8, places: 2, min: 0, nullable: true }),
    distance_unit: f.choice(DistanceUnit, { nullable: true }),
    termination_a: new TerminationSide('A'),
    termination_z: new TerminationSide('Z'),
    comments: f.text({ blank: true }),
    assignments: f.reverse('circuits.circuitgroupassignment', 'member', { many: true, nested: ['id', 'url', 'display_url', 'display', 'group', 'priority'] }),
  },
  unique: [{ fields: ['provider', 'cid'] }, { fields: ['provider_account', 'cid'] }],
  brief: ['provider', 'cid', 'description'],
  display: (row) => String(row.cid),
  displayUses: ['cid'],
  ordering: ['provider', 'provider_account', 'cid'],
  search: ['cid', 'terminations__xconnect_id', 'terminations__pp_info', 'terminations__description', 'description', 'comments'],
  filters: {
    provider_network_id: providerNetworkFilter(true),
    ...placeFilters('termination', { rows: (db) => db('circuits_circuittermination as v'), column: 'v.circuit_id' }),
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts', 'imageAttachments'],
  async validate(row, ctx) {
    if (row.provider_account_id) {
      const account = await ctx.stored(ctx.registry.get('circuits.provideraccount'), row.provider_account_id as number);
      if (account && account.provider_id !== row.provider_id) throw ValidationError.of('provider_account', 'The assigned account must belong to the assigned provider.');
    }
    if (row.distance !== null && row.distance !== undefined && !row.distance_unit) throw ValidationError.of('distance_unit', 'Must specify a unit when setting a distance');
  },
  hooks: {
    // A circuit without a distance has no unit either.
    beforeSave(item) {
      if (item.row.distance === null || item.row.distance === undefined) item.columns.distance_unit = null;
    },
  },
});

/** `CID123: Termination A`. */
async function terminationDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const circuits = await loadDisplays(ctx.registry.get('circuits.circuit'), rows.map((r) => r.circuit_id as number), ctx);
  return new Map(rows.map((r) => [r.id as number, `${circuits.get(r.circuit_id as number) ?? ''}: Termination ${r.term_side}`]));
}

/** One end of a circuit: at a site, location, region, site group or on a provider network. */
export const CircuitTermination = defineModel('circuits.circuittermination', {
  path: 'circuit-terminations',
  verboseName: 'circuit termination',
  fields: {
    circuit: f.fk('circuits.circuit', { onDelete: 'cascade', related: 'terminations' }),
    term_side: f.choice(TermSide, { label: 'Termination side' }),
    termination: f.generic({ models: TERMINATION_TARGETS, nullable: true, related: 'circuit_terminations' }),
    port_speed: f.integer({ min: 0, max: 2147483647, nullable: true, label: 'Port speed (Kbps)' }),
    upstream_speed: f.integer({ min: 0, max: 2147483647, nullable: true, label: 'Upstream speed (Kbps)' }),
    xconnect_id: f.string({ max: 50, blank: true, label: 'Cross-connect ID' }),
    pp_info: f.string({ max: 100, blank: true, label: 'Patch panel/port(s)' }),
    description: f.string({ max: 200, blank: true }),
    ...cabled(circuitTerminationRole),
  },
  unique: [{ fields: ['circuit', 'term_side'] }],
  brief: ['circuit', 'term_side', 'description', 'cable', '_occupied'],
  displayLoader: terminationDisplays,
  displayUses: ['circuit', 'term_side'],
  ordering: ['circuit', 'term_side'],
  parent: 'circuit',
  search: ['circuit__cid', 'xconnect_id', 'pp_info', 'description'],
  relatedFilters: { provider: 'circuit__provider' },
  filters: {
    provider_network_id: providerNetworkFilter(false),
    ...placeFilters('termination'),
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'cabled'],
  validate(row, ctx) {
    const refused = row.cable_id ? circuitTerminationRole.refuse!(row, ctx.registry) : undefined;
    if (refused) throw ValidationError.of('termination', refused);
  },
  hooks: {
    async afterSave(items, session) {
      const moved = items.filter((i) => !i.instance || ['circuit_id', 'term_side', 'termination_type_id', 'termination_id'].some((c) => i.instance![c] !== i.row[c]));
      await retraceCircuits(moved.flatMap((i) => [i.row, ...(i.instance ? [i.instance] : [])]), session);
    },
    afterDelete: (rows, session) => retraceCircuits(rows, session),
  },
});
