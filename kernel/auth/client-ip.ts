import { BlockList, isIP } from 'node:net';
import type { Request } from 'express';

/** `::ffff:10.0.0.1` → `10.0.0.1`; ports and brackets dropped. */
function normalise(address: string): string {
  let a = address.trim().replace(/^\[|\](:\d+)?$/g, '');
  if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a)) a = a.split(':')[0];
  return a.toLowerCase().startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a;
}

/** A set of IPv4/IPv6 prefixes (`10.0.0.0/8`, `2001:db8::/32`, or bare addresses). */
export function prefixSet(prefixes: string[]): BlockList {
  const list = new BlockList();
  for (const prefix of prefixes) {
    const [address, length] = prefix.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(address)) continue;
    list.addSubnet(address, length === undefined ? (type === 'ipv4' ? 32 : 128) : Number(length), type);
  }
  return list;
}

export function contains(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address: the connection's peer, unless that peer is a trusted proxy, in which case the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy.
 */
export function clientIp(req: Request, trusted: BlockList): string | undefined {
  const peer = req.socket.remoteAddress ? normalise(req.socket.remoteAddress) : undefined;
  if (!peer || !contains(trusted, peer)) return peer;
  const forwarded = (req.get('x-forwarded-for') ?? '').split(',').map(normalise).filter((a) => isIP(a));
  for (let i = forwarded.length - 1; i >= 0; i--) if (!contains(trusted, forwarded[i])) return forwarded[i];
  return forwarded[0] ?? peer;
}
