import { definePlugin } from '../../kernel/index.js';
import { Aggregate } from './models/aggregate.js';
import { AsnRange } from './models/asn-range.js';
import { Asn } from './models/asn.js';
import { IpAddress } from './models/ip-address.js';
import { IpRange } from './models/ip-range.js';
import { Prefix } from './models/prefix.js';
import { Rir } from './models/rir.js';
import { Role } from './models/role.js';
import { RouteTarget } from './models/route-target.js';
import { Vrf } from './models/vrf.js';
import { availableIpsRoute, methodNotAllowed, prefixPool, rangePool } from './routes/available-ips.js';

/** Addressing: VRFs, RIRs and aggregates, prefixes, IP ranges and addresses, AS numbers. */
export default definePlugin({
  name: 'ipam',
  label: 'IPAM',
  version: '0.1.0',
  kernel: '^0.1.0',
  dependencies: ['tenancy', 'dcim'],
  basePath: '/api/ipam/',
  models: [RouteTarget, Vrf, Rir, Aggregate, Role, Prefix, IpRange, IpAddress, AsnRange, Asn],
  migrations: new URL('./migrations/', import.meta.url),
  routes(router, ctx) {
    const prefixIps = availableIpsRoute(ctx, Prefix, prefixPool);
    const rangeIps = availableIpsRoute(ctx, IpRange, rangePool);
    router.route('/prefixes/:id/available-ips/').get(prefixIps).post(prefixIps).all(methodNotAllowed);
    router.route('/ip-ranges/:id/available-ips/').get(rangeIps).post(rangeIps).all(methodNotAllowed);
  },
});
