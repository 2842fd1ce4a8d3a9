import { ParamError, not, or, parseWholeNumber, type FilterNode, type QueryFilter, type SqlCondition } from 'patchbay';
import { networkOf, parseIp } from '../fields/network.js';
import { networkFilter } from './network-filters.js';

/** An address or network a range filter compares with, or a 400 naming it. */
function ipOf(value: string) {
  const ip = parseIp(value);
  if (!ip) throw new ParamError(`Enter a valid IPv4 or IPv6 address or prefix: ${value}`);
  return ip;
}

const sql = (condition: SqlCondition): FilterNode => ({ op: 'sql', condition });

const COMPARE: Record<string, string> = { '': '=', n: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/** NetBox's IP range filters by method: bounds, ranges holding an address, ranges inside a prefix, size. */
export const rangeFilters: Record<string, QueryFilter> = {
  start_address: networkFilter('start_address', 'address'),
  end_address: networkFilter('end_address', 'address'),
  contains: {
    suffixes: [],
    build: (_s, values) =>
      or(values.map((v) => {
        const host = ipOf(v).address;
        return sql((qb, a) => void qb.whereRaw('host(??)::inet <= ?::inet and host(??)::inet >= ?::inet', [`${a}.start_address`, host, `${a}.end_address`, host]));
      })),
  },
  parent: {
    suffixes: [],
    build: (_s, values) =>
      or(values.map((v) => {
        const network = networkOf(ipOf(v));
        return sql((qb, a) => void qb.whereRaw('host(??)::inet <<= ?::inet and host(??)::inet <<= ?::inet', [`${a}.start_address`, network, `${a}.end_address`, network]));
      })),
  },
  // Addresses from start to end (inet minus inet is their distance).
  size: {
    suffixes: ['n', 'lt', 'lte', 'gt', 'gte'],
    build: (suffix, values) => {
      const node = or(values.map(parseWholeNumber).map((n) =>
        sql((qb, a) => void qb.whereRaw(`(host(??)::inet - host(??)::inet + 1) ${COMPARE[suffix]} ?`, [`${a}.end_address`, `${a}.start_address`, n])),
      ));
      return suffix === 'n' ? not(node) : node;
    },
  },
};
