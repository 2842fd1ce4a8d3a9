import { not, parseWholeNumber, type Db, type FilterExtension, type FilterNode, type QueryFilter } from 'patchbay';

/** Rows whose id is among what `select` returns for the parsed values (`__n`: not). */
function idIn(select: (db: Db, keys: (string | number)[]) => ReturnType<Db>, numeric: boolean): QueryFilter {
  return {
    suffixes: ['n'],
    build: (suffix, values) => {
      const keys = numeric ? values.map(parseWholeNumber) : values;
      const node: FilterNode = { op: 'sql', condition: (qb, alias, _m, db) => void qb.whereIn(`${alias}.id`, select(db, keys)) };
      return suffix === 'n' ? not(node) : node;
    },
  };
}

/**
 * The filters NetBox's other apps have along circuits: AS numbers by provider, interfaces by the virtual circuit
 * terminating on them. Added by this plugin, so the other apps work without it.
 */
export function filtersElsewhere(): FilterExtension {
  const byModel: Record<string, Record<string, QueryFilter>> = {
    'ipam.asn': {
      provider_id: idIn((db, keys) => db('circuits_provider_asns').select('asn_id').whereIn('provider_id', keys), true),
      provider: idIn((db, keys) => db('circuits_provider_asns as l').join('circuits_provider as p', 'p.id', 'l.provider_id').select('l.asn_id').whereIn('p.slug', keys), false),
    },
    'dcim.interface': {
      virtual_circuit_id: idIn((db, keys) => db('circuits_virtualcircuittermination').select('interface_id').whereIn('virtual_circuit_id', keys), true),
      virtual_circuit_termination_id: idIn((db, keys) => db('circuits_virtualcircuittermination').select('interface_id').whereIn('id', keys), true),
    },
  };
  return { appliesTo: (model) => model.key in byModel, filters: (model) => byModel[model.key] };
}
