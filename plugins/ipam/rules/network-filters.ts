import { ParamError, cmp, not, or, parseWholeNumber, type FilterNode, type QueryFilter } from 'patchbay';
import { networkOf, parseIp, type IpNetwork } from '../fields/network.js';

/** A filter value as a network or address, or a 400 naming the parameter's value. */
function ipOf(value: string): IpNetwork {
  const ip = parseIp(value);
  if (!ip) throw new ParamError(`Enter a valid IPv4 or IPv6 address or prefix: ${value}`);
  return ip;
}

const many = (values: string[], node: (value: string) => FilterNode, negate = false): FilterNode => {
  const matched = or(values.map(node));
  return negate ? not(matched) : matched;
};

/**
 * NetBox's network filters by method, over the network or address `column`:
 * - `exact` (`?prefix=`): the same network, host bits ignored;
 * - `within`, `within_include`: strictly inside (or equal to) the given network;
 * - `contains`: networks holding the given one (a bare address: strictly);
 * - `parent` (addresses): hosts inside the given network, whatever their mask;
 * - `address`: the same address and mask, or given without a mask, the same host.
 */
export function networkFilter(column: string, kind: 'exact' | 'within' | 'within_include' | 'contains' | 'parent' | 'address'): QueryFilter {
  const path = [column];
  const build = (value: string): FilterNode => {
    const ip = ipOf(value);
    const bare = !value.includes('/');
    switch (kind) {
      case 'exact':
        return cmp(path, 'exact', networkOf(ip));
      case 'within':
        return cmp(path, 'net_contained', networkOf(ip));
      case 'within_include':
        return cmp(path, 'net_contained_or_equal', networkOf(ip));
      case 'contains':
        return cmp(path, bare ? 'net_contains' : 'net_contains_or_equals', networkOf(ip));
      case 'parent':
        return cmp(path, 'net_host_contained', networkOf(ip));
      case 'address':
        return bare ? cmp(path, 'net_host', ip.address) : cmp(path, 'exact', `${ip.address}/${ip.length}`);
    }
  };
  const negatable = kind === 'exact' || kind === 'address';
  return { suffixes: negatable ? ['n'] : [], build: (suffix, values) => many(values, build, suffix === 'n') };
}

/** `?mask_length=24`, `__gte`, `__lte`: by the length of the network's mask. */
export function maskLengthFilter(column: string): QueryFilter {
  const lookup: Record<string, string> = { '': 'net_mask_length', gte: 'net_mask_length__gte', lte: 'net_mask_length__lte' };
  return {
    suffixes: ['gte', 'lte'],
    build: (suffix, values) => or(values.map((v) => cmp([column], lookup[suffix], parseWholeNumber(v)))),
  };
}
