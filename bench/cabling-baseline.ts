import { randomUUID } from 'node:crypto';
import type { Db } from '../kernel/base/types.js';
import { formatDateTime } from '../kernel/base/time.js';
import { deviceColumns, links, nodeBrief, nodeSql, pathsFrom } from './dcim-baseline.js';

type Row = Record<string, unknown>;
type Handler = (url: URL, body: unknown) => Promise<unknown>;

const NODE = nodeSql('e.model', 'e.node_id');

/** The hops of the path starting at `?` (a node), one row per node (an empty hop gives one row without), with its object. */
const TRACE = `with p as (${pathsFrom('array[?]::text[]')} limit 1),
    e as (select h.n::int as hop, x.k as pos, split_part(x.node, ':', 1) as model, split_part(x.node, ':', 2)::int as node_id
      from p cross join lateral jsonb_array_elements(p.path) with ordinality h(nodes, n)
      left join lateral jsonb_array_elements_text(h.nodes) with ordinality x(node, k) on true)
  select e.hop, ${NODE.columns}, cb.type as cb_type, cb.status as cb_status, cb.label as cb_label, cb.color as cb_color,
    cb.length as cb_length, cb.length_unit as cb_length_unit, cb.description as cb_description
  from e ${NODE.joins} left join lateral (select * from dcim_cable where e.model = 'dcim.cable' and id = e.node_id offset 0) cb on true
  order by e.hop, e.pos`;

/**
 * GET /api/dcim/interfaces/<id>/trace/ by hand: the stored path from the interface in one statement (its hops with
 * every object and cable on them), cut into [near ends, cable, far ends] segments as Patchbay does (a path ending at
 * an open port padded to whole segments). It does not follow a bridge at the far end (no path of the bench has one).
 */
export function interfaceTrace(db: Db, id: number): Handler {
  return async (url) => {
    const base = url.origin;
    const { rows } = (await db.raw(TRACE, [`dcim.interface:${id}`])) as { rows: Row[] };
    const hops: Row[][] = [];
    for (const r of rows) {
      const hop = (hops[(r.hop as number) - 1] ??= []);
      if (r.n_model) hop.push(r);
    }
    if (hops.length % 3 === 1) hops.push([], []);
    else if (hops.length % 3 === 2) hops.splice(hops.length - 1, 0, []);
    const cable = (r: Row | undefined) => r === undefined ? null : {
      id: r.n_id, ...links(base, 'dcim/cables', r.n_id), type: r.cb_type, status: r.cb_status, label: r.cb_label, color: r.cb_color,
      length: r.cb_length === null ? null : Number(r.cb_length), length_unit: r.cb_length_unit, description: r.cb_description,
    };
    const segments: unknown[] = [];
    for (let n = 0; n + 2 < hops.length && hops[n].length; n += 3) {
      segments.push([hops[n].map((r) => nodeBrief(base, r)), cable(hops[n + 1][0]), hops[n + 2].map((r) => nodeBrief(base, r))]);
    }
    return segments;
  };
}

/** A cable as the bench creates them: one interface at each end. */
export interface CableBody {
  a_terminations: { object_type: 'dcim.interface'; object_id: number }[];
  b_terminations: { object_type: 'dcim.interface'; object_id: number }[];
}

/** The two paths of a cable between interfaces `a` and `b`, as SQL over `v(a, b, cable, pa, pb)`: one from each end. */
const HOPS = (from: string, to: string) => `jsonb_build_array(jsonb_build_array('dcim.interface:' || ${from}), jsonb_build_array('dcim.cable:' || cable), jsonb_build_array('dcim.interface:' || ${to}))`;

/** The interface at end `e` (`a` or `b`) of a written cable, with its device, as the answer nests it (columns `e_…`). */
const endColumns = (e: string) => `${e}i.name as ${e}_name, ${e}i.label as ${e}_label, ${e}i.description as ${e}_description,
  ${e}i.mark_connected as ${e}_mark_connected, ${deviceColumns(`${e}d`, `${e}d`, `${e}d.device_type_id`)}`;

/** The brief form of the interface at end `e` of cable row `r` (its cable the new one), by nodeBrief's rule. */
function endBrief(base: string, r: Row, e: 'a' | 'b'): Row {
  const column = (name: string) => r[`${e}${name}`];
  return nodeBrief(base, {
    n_model: 'dcim.interface', n_id: r[e], n_name: column('_name'), n_label: column('_label'), n_description: column('_description'),
    n_mark_connected: column('_mark_connected'), nc_id: r.cable, nc_label: '', nc_description: '',
    nd_id: column('d_id'), nd_name: column('d_name'), nd_asset_tag: column('d_asset_tag'), nd_description: column('d_description'), nd_type: column('d_type'),
  });
}

/**
 * POST /api/dcim/cables/ by hand, for cables between two interfaces (one cable or a list): in one statement, the
 * cables, their two terminations, `cable` and `cable_end` set on both interfaces (only while they are free: a taken
 * interface rolls everything back), the complete path from each end with its nodes (the ends' origins marked) and a
 * change record per cable as Patchbay writes it (the writer's user, the cable's data); then the cables as the API
 * answers them, each end's interface nested with its device. No other validation than the interfaces being free.
 */
export function createCables(db: Db, types: { cable: number; interface: number }, user: { id: number; name: string }): Handler {
  return async (url, payload) => {
    const bodies = (Array.isArray(payload) ? payload : [payload]) as CableBody[];
    const pairs = bodies.map((b) => ({ a: b.a_terminations[0].object_id, b: b.b_terminations[0].object_id }));
    const rows = await db.transaction(async (trx) => {
      const { rows } = (await trx.raw(
        `with v as materialized (
           select x.a, x.b, nextval(pg_get_serial_sequence('dcim_cable', 'id'))::int as cable,
             nextval(pg_get_serial_sequence('dcim_cablepath', 'id'))::int as pa, nextval(pg_get_serial_sequence('dcim_cablepath', 'id'))::int as pb
           from jsonb_to_recordset(:pairs::jsonb) as x(a int, b int)),
         c as (insert into dcim_cable (id, status, created, last_updated) select cable, 'connected', now(), now() from v),
         t as (insert into dcim_cabletermination (cable_id, cable_end, termination_type_id, termination_id, created, last_updated)
           select cable, 'A', :interface::int, a, now(), now() from v union all select cable, 'B', :interface::int, b, now(), now() from v),
         ua as (update dcim_interface e set cable_id = v.cable, cable_end = 'A' from v where e.id = v.a and e.cable_id is null returning 1),
         ub as (update dcim_interface e set cable_id = v.cable, cable_end = 'B' from v where e.id = v.b and e.cable_id is null returning 1),
         p as (insert into dcim_cablepath (id, path, is_active, is_complete, is_split, created, last_updated)
           select pa, ${HOPS('a', 'b')}, true, true, false, now(), now() from v union all select pb, ${HOPS('b', 'a')}, true, true, false, now(), now() from v),
         n as (insert into dcim_cablepathnode (path_id, node, origin, created, last_updated)
           select x.path, x.node, x.origin, now(), now() from v cross join lateral (values
             (pa, 'dcim.interface:' || a, true), (pa, 'dcim.cable:' || cable, false), (pa, 'dcim.interface:' || b, false),
             (pb, 'dcim.interface:' || b, true), (pb, 'dcim.cable:' || cable, false), (pb, 'dcim.interface:' || a, false)) x(path, node, origin)),
         o as (insert into extras_objectchange (user_id, user_name, request_id, action, changed_object_type_id, changed_object_id, object_repr, message, postchange_data, time, created, last_updated)
           select :user::int, :username, :request::uuid, 'create', :cable::int, cable, '#' || cable, '',
             jsonb_build_object('tags', '[]'::jsonb, 'type', null, 'color', '', 'label', '', 'length', null, 'status', 'connected', 'tenant', null,
               'comments', '', 'description', '', 'length_unit', null, 'custom_fields', '{}'::jsonb, 'a_terminations', jsonb_build_array(a), 'b_terminations', jsonb_build_array(b)),
             now(), now(), now() from v)
         select v.cable, v.a, v.b, now() as created, (select count(*) from ua)::int + (select count(*) from ub)::int as attached, ${endColumns('a')}, ${endColumns('b')}
         from v join dcim_interface ai on ai.id = v.a join dcim_device ad on ad.id = ai.device_id
           join dcim_interface bi on bi.id = v.b join dcim_device bd on bd.id = bi.device_id
         order by v.cable`,
        { pairs: JSON.stringify(pairs), interface: types.interface, cable: types.cable, user: user.id, username: user.name, request: randomUUID() },
      )) as { rows: Row[] };
      if (rows.some((r) => r.attached !== 2 * pairs.length)) throw new Error('An interface is taken by another cable');
      return rows;
    });
    const base = url.origin;
    const end = (r: Row, e: 'a' | 'b') => [{ object_type: 'dcim.interface', object_id: r[e], object: endBrief(base, r, e) }];
    const created = rows.map((r) => {
      const at = formatDateTime(r.created as string);
      return {
        id: r.cable, ...links(base, 'dcim/cables', r.cable), display: `#${r.cable}`, type: null, a_terminations: end(r, 'a'), b_terminations: end(r, 'b'),
        status: { value: 'connected', label: 'Connected' }, tenant: null, label: '', color: '', length: null, length_unit: null, description: '', comments: '',
        tags: [], custom_fields: {}, created: at, last_updated: at,
      };
    });
    return Array.isArray(payload) ? created : created[0];
  };
}
