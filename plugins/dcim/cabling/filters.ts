import {
  ParamError, lastValue, not, parseBoolean, parseWholeNumber,
  type FilterExtension, type FilterNode, type ModelRegistry, type QueryFilter,
} from 'patchbay';
import { cableRole } from './cabled.js';

/** A condition on the cable row `alias`: its id is among what `select` returns. */
function cablesIn(select: string, bindings: unknown[], negate: boolean): FilterNode {
  const node: FilterNode = { op: 'sql', condition: (qb, alias) => void qb.whereRaw(`${alias}.id in (${select})`, bindings as never[]) };
  return negate ? not(node) : node;
}

/** A filter by ids (`__n` excludes) or by another key, parsed before any SQL is built. */
function idsOrKeys(select: string, numeric: boolean): QueryFilter {
  return {
    suffixes: ['n'],
    value: { type: numeric ? 'integer' : 'string' },
    build: (suffix, values) => cablesIn(select, [numeric ? values.map(parseWholeNumber) : values], suffix === 'n'),
  };
}

/**
 * Where each cable's ends are (`cable_id, device_id, rack_id, location_id, site_id`): every cabled model's
 * objects placed by its role's `place`, or by their device.
 */
function placedEnds(registry: ModelRegistry): string {
  const parts = registry.all().flatMap((model) => {
    const role = cableRole(registry, model.key);
    const type = registry.objectTypes.idOf(model.key);
    if (!role || type === undefined) return [];
    const place = role.place ?? (model.field('device')
      ? `select e.id, d.id as device_id, d.rack_id, d.location_id, d.site_id from ${model.table} e join dcim_device d on d.id = e.device_id`
      : undefined);
    if (!place) return [];
    return [`select ct.cable_id, p.device_id, p.rack_id, p.location_id, p.site_id from dcim_cabletermination ct join (${place}) p on p.id = ct.termination_id where ct.termination_type_id = ${type}`];
  });
  return parts.length ? parts.join(' union all ') : 'select null::int as cable_id, null::int as device_id, null::int as rack_id, null::int as location_id, null::int as site_id';
}

/**
 * The cable list's filters along its terminations (NetBox's CableFilterSet): by end and type, by the object at
 * either end (`interface_id`, …, one per cabled model), by where the ends are, and `unterminated`.
 */
export function cableFilters(registry: ModelRegistry): FilterExtension {
  const filters = (): Record<string, QueryFilter> => {
    const placed = (where: string) => `select x.cable_id from (${placedEnds(registry)}) x where ${where}`;
    const byEnd = (end: 'A' | 'B'): Record<string, QueryFilter> => ({
      [`termination_${end.toLowerCase()}_type`]: {
        suffixes: ['n'],
        build: (suffix, values) => {
          const types = values.map((v) => {
            const id = cableRole(registry, v) ? registry.objectTypes.idOf(v) : undefined;
            if (id === undefined) throw new ParamError(`Select a valid choice. ${v} is not one of the available choices.`);
            return id;
          });
          return cablesIn(`select cable_id from dcim_cabletermination where cable_end = '${end}' and termination_type_id = any(?)`, [types], suffix === 'n');
        },
      },
      [`termination_${end.toLowerCase()}_id`]: idsOrKeys(`select cable_id from dcim_cabletermination where cable_end = '${end}' and termination_id = any(?)`, true),
    });
    const byObject = Object.fromEntries(
      registry.all().flatMap((model) => {
        const type = registry.objectTypes.idOf(model.key);
        if (!cableRole(registry, model.key) || type === undefined) return [];
        return [[`${model.name}_id`, idsOrKeys(`select cable_id from dcim_cabletermination where termination_type_id = ${type} and termination_id = any(?)`, true)]];
      }),
    );
    return {
      ...byEnd('A'),
      ...byEnd('B'),
      ...byObject,
      device_id: idsOrKeys(placed('x.device_id = any(?)'), true),
      device: idsOrKeys(placed('x.device_id in (select id from dcim_device where name = any(?))'), false),
      rack_id: idsOrKeys(placed('x.rack_id = any(?)'), true),
      rack: idsOrKeys(placed('x.rack_id in (select id from dcim_rack where name = any(?))'), false),
      location_id: idsOrKeys(placed('x.location_id = any(?)'), true),
      location: idsOrKeys(placed('x.location_id in (select id from dcim_location where name = any(?))'), false),
      site_id: idsOrKeys(placed('x.site_id = any(?)'), true),
      site: idsOrKeys(placed('x.site_id in (select id from dcim_site where slug = any(?))'), false),
      unterminated: {
        suffixes: [],
        value: { type: 'boolean' },
        build: (_suffix, values) => {
          // Unterminated: not terminated at both ends.
          const both = 'select cable_id from dcim_cabletermination group by cable_id having count(distinct cable_end) = 2';
          return cablesIn(both, [], parseBoolean(lastValue(values)));
        },
      },
    };
  };
  return { appliesTo: (model) => model.key === 'dcim.cable', filters };
}
