import ipaddr from 'ipaddr.js';
import {
  EQUALITY_LOOKUPS, FilterError, ORDER_LOOKUPS, ScalarField, TEXT_LOOKUPS,
  type CommonOptions, type DerivedField, type ExpressionIndex, type Json, type LookupSql, type Lookups, type ValueSchema,
} from 'patchbay';
import { PrefixTreeField } from './prefix-tree.js';

/** An address with its mask length, as written (`10.0.0.5/24`) or as PostgreSQL reads it back (`10.0.0.5`). */
export interface IpNetwork {
  family: 4 | 6;
  address: string;
  length: number;
}

/**
 * Reads `a.b.c.d[/n]` or an IPv6 address with an optional mask; undefined when it is not one. Shorthands that
 * netaddr would read oddly (`10.1`, octal `010.0.0.1`) and zone indexes are not addresses here.
 */
export function parseIp(value: unknown): IpNetwork | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const slash = text.indexOf('/');
  const host = slash < 0 ? text : text.slice(0, slash);
  const mask = slash < 0 ? undefined : text.slice(slash + 1);
  if (mask !== undefined && !/^\d{1,3}$/.test(mask)) return undefined;
  let family: 4 | 6;
  if (ipaddr.IPv4.isValidFourPartDecimal(host) && !/(^|\.)0\d/.test(host)) family = 4;
  else if (host.includes(':') && !host.includes('%') && ipaddr.IPv6.isValid(host)) family = 6;
  else return undefined;
  const max = family === 4 ? 32 : 128;
  const length = mask === undefined ? max : Number(mask);
  if (length > max) return undefined;
  return { family, address: ipaddr.parse(host).toString(), length };
}

/** The network a value belongs to: host bits cleared (`10.0.0.5/24` → `10.0.0.0/24`). */
export function networkOf(ip: IpNetwork): string {
  const cidr = `${ip.address}/${ip.length}`;
  const network = ip.family === 4 ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  return `${network.toString()}/${ip.length}`;
}

/** The first and last address of the network `cidr` (`a.b.c.d/n`). */
export function bounds(cidr: string, family: 4 | 6): { network: string; broadcast: string } {
  const kind = family === 4 ? ipaddr.IPv4 : ipaddr.IPv6;
  return { network: kind.networkAddressFromCIDR(cidr).toString(), broadcast: kind.broadcastAddressFromCIDR(cidr).toString() };
}

/** An address as a number (IPv6 needs more than 53 bits). */
export function toBigInt(address: string): bigint {
  return ipaddr.parse(address).toByteArray().reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);
}

/** PostgreSQL reads an inet with a full mask without it; NetBox always shows the mask. */
export function withMask(value: string): string {
  if (value.includes('/')) return value;
  return `${value}/${value.includes(':') ? 128 : 32}`;
}

const raw = (sql: string): LookupSql => (qb, column, value) => void qb.whereRaw(sql, [column, value as string | number]);

/**
 * Network comparisons, as NetBox's lookups name them: containment both ways (strict or not), the host part, the
 * mask length and the family. Each is a PostgreSQL operator the GiST (`inet_ops`) index serves where it can.
 */
export const NETWORK_LOOKUPS: Lookups = {
  net_contained: raw('?? << ?::inet'),
  net_contained_or_equal: raw('?? <<= ?::inet'),
  net_contains: raw('?? >> ?::inet'),
  net_contains_or_equals: raw('?? >>= ?::inet'),
  net_host: raw('host(??) = ?'),
  net_host_contained: raw('host(??)::inet <<= ?::inet'),
  net_mask_length: raw('masklen(??) = ?'),
  net_mask_length__gte: raw('masklen(??) >= ?'),
  net_mask_length__lte: raw('masklen(??) <= ?'),
  family: raw('family(??) = ?'),
};

const NUMBER_LOOKUPS = new Set(['net_mask_length', 'net_mask_length__gte', 'net_mask_length__lte', 'family']);

/** Shared by networks and addresses: the lookups, the index, the value a comparison takes. */
export interface IpOptions extends CommonOptions {
  /** Also index the first address without the mask, for reading in address order from a point (allocation). */
  hostIndex?: boolean;
}

abstract class IpField<O extends IpOptions = IpOptions> extends ScalarField<O> {
  /** The stored text of a written value, or a message (thrown) saying why it is not one. */
  protected abstract stored(ip: IpNetwork): string;

  protected coerce(value: unknown): string {
    const ip = parseIp(value);
    if (!ip) throw `Enter a valid IPv4 or IPv6 address with optional mask (${String(value)}).`;
    return this.stored(ip);
  }

  protected override toJson(value: unknown): Json {
    return withMask(String(value));
  }

  /** `withMask`'s text: the cast to text keeps a host's mask, which the column's output leaves out. */
  protected override storedSql(column: string): string {
    return `${column}::text`;
  }

  override lookups(): Lookups {
    return { ...EQUALITY_LOOKUPS, ...ORDER_LOOKUPS, ...TEXT_LOOKUPS, ...NETWORK_LOOKUPS };
  }

  override filterValue(value: unknown, lookup: string): unknown {
    if (NUMBER_LOOKUPS.has(lookup)) {
      const n = typeof value === 'number' ? value : /^\d{1,3}$/.test(String(value)) ? Number(value) : NaN;
      if (!Number.isInteger(n)) throw new FilterError(`Expected a whole number, got ${JSON.stringify(value)}.`, 'value');
      return n;
    }
    if (lookup === 'net_host') {
      const ip = parseIp(value);
      if (!ip) throw new FilterError(`Expected an IP address, got ${JSON.stringify(value)}.`, 'value');
      return ip.address;
    }
    const ip = parseIp(value);
    if (!ip) throw new FilterError(`Expected an IP network, got ${JSON.stringify(value)}.`, 'value');
    return lookup.startsWith('net_') ? networkOf(ip) : this.stored(ip);
  }

  override indexes(): ExpressionIndex[] {
    const { table } = this.model;
    const gist = `${table}_${this.name}_gist`;
    const indexes = [{ name: gist, expression: `create index "${gist}" on "${table}" using gist ("${this.name}" inet_ops)` }];
    const host = `${table}_${this.name}_host`;
    if (this.options.hostIndex) indexes.push({ name: host, expression: `create index "${host}" on "${table}" ((host("${this.name}")::inet))` });
    return indexes;
  }
}

export interface NetworkOptions extends IpOptions {
  /** Adds `children` and `_depth` (the prefixes inside and around each one, in its VRF) to the model. */
  hierarchy?: boolean;
}

/** A network (`cidr`): prefixes and aggregates. Host bits are cleared as it is written, as NetBox does. */
export class NetworkField extends IpField<NetworkOptions> {
  override link(): DerivedField[] {
    if (!this.options.hierarchy) return [];
    return [
      { model: this.model, name: 'children', field: new PrefixTreeField('children') },
      { model: this.model, name: '_depth', field: new PrefixTreeField('depth') },
    ];
  }

  protected sqlType(): string {
    return 'cidr';
  }

  protected stored(ip: IpNetwork): string {
    return networkOf(ip);
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'cidr' };
  }
}

/** An address with its mask (`inet`): IP addresses, range bounds. Without a mask it is a host (/32, /128). */
export class AddressField extends IpField {
  protected sqlType(): string {
    return 'inet';
  }

  protected stored(ip: IpNetwork): string {
    return `${ip.address}/${ip.length}`;
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'ip-interface' };
  }
}
