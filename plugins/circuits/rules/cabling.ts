import type { Row, WriteSession } from 'patchbay';
import { nodeOf, retraceIn, type CableRole, type PassThrough } from '../../dcim/api.js';

const TERMINATION = 'circuits.circuittermination';

/** The object type id of a model, as SQL. */
const typeOf = (app: string, model: string) => `(select id from core_objecttype where app_label = '${app}' and model = '${model}')`;

/**
 * A path reaching one end of a circuit comes out at the other: on along its cable, or ending at the provider
 * network (a complete path) or the site it terminates at. NetBox's CablePath does the same.
 */
const acrossCircuit: PassThrough = async (far, _state, load) => {
  if (far.length > 1) return { stop: true, split: true };
  const [here] = far;
  const peer = (await load.where(TERMINATION, 'circuit_id', here.circuit_id as number)).find((t) => t.term_side !== here.term_side);
  if (!peer) return { stop: true };
  const place = peer.termination_type_id ? load.registry.objectTypes.keyOf(peer.termination_type_id as number) : undefined;
  if (place) {
    const ends = [[nodeOf(TERMINATION, peer.id as number)], [nodeOf(place, peer.termination_id as number)]];
    if (place === 'circuits.providernetwork') return { stop: true, append: ends, complete: true };
    if (!peer.cable_id) return { stop: true, append: ends };
  }
  return { next: { model: TERMINATION, rows: [peer] } };
};

/** Circuit terminations in cable paths: they carry paths across the circuit, and take no cable at a provider network. */
export const circuitTerminationRole: CableRole = {
  passThrough: acrossCircuit,
  connectsTo: ['dcim.interface', 'dcim.frontport', 'dcim.rearport', TERMINATION],
  refuse: (row, registry) =>
    registry.objectTypes.keyOf(row.termination_type_id as number) === 'circuits.providernetwork'
      ? 'Circuit terminations attached to a provider network may not be cabled.'
      : undefined,
  // Where the termination is: its site, or its location and the location's site.
  place: `select e.id, null::int as device_id, null::int as rack_id, l.id as location_id, coalesce(s.id, l.site_id) as site_id
    from circuits_circuittermination e
    left join dcim_site s on e.termination_type_id = ${typeOf('dcim', 'site')} and s.id = e.termination_id
    left join dcim_location l on e.termination_type_id = ${typeOf('dcim', 'location')} and l.id = e.termination_id`,
};

/** Re-traces the paths through both ends of the circuits of `terminations` (one end changed, came or went). */
export async function retraceCircuits(terminations: Row[], session: WriteSession): Promise<void> {
  const circuits = [...new Set(terminations.map((t) => t.circuit_id as number))];
  const ends = (await session.db(TERMINATION.replace('.', '_')).select('id').whereIn('circuit_id', circuits)) as Row[];
  await retraceIn(session, [...ends, ...terminations].map((t) => nodeOf(TERMINATION, t.id as number)));
}
