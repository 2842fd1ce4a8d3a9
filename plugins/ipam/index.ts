import { definePlugin } from 'patchbay';
import { IPAM_CONTRIBUTIONS } from './contributions.js';
import { ipamDemoSteps } from './demo/steps.js';
import { Aggregate } from './models/aggregate.js';
import { FhrpGroupAssignment } from './models/fhrp-assignment.js';
import { FhrpGroup } from './models/fhrp-group.js';
import { Service, ServiceTemplate } from './models/services.js';
import { VlanTranslationPolicy, VlanTranslationRule } from './models/vlan-translation.js';
import { AsnRange } from './models/asn-range.js';
import { Asn } from './models/asn.js';
import { IpAddress } from './models/ip-address.js';
import { IpRange } from './models/ip-range.js';
import { Prefix } from './models/prefix.js';
import { Rir } from './models/rir.js';
import { Role } from './models/role.js';
import { RouteTarget } from './models/route-target.js';
import { VlanGroup } from './models/vlan-group.js';
import { Vlan } from './models/vlan.js';
import { Vrf } from './models/vrf.js';
import { allocationRoute, methodNotAllowed } from './routes/allocation.js';
import { ipamOperations } from './routes/operations.js';
import { availableAsns } from './routes/available-asns.js';
import { availableIps, prefixPool, rangePool } from './routes/available-ips.js';
import { availablePrefixes } from './routes/available-prefixes.js';
import { availableVlans } from './routes/available-vlans.js';

/** Addressing: VRFs, RIRs and aggregates, VLANs, prefixes, IP ranges and addresses, FHRP groups, services, AS numbers. */
export default definePlugin({
  name: 'ipam',
  label: 'IPAM',
  version: '0.1.0',
  kernel: '^0.1.0',
  dependencies: ['tenancy', 'dcim'],
  basePath: '/api/ipam/',
  models: [
    RouteTarget, Vrf, Rir, Aggregate, Role, VlanGroup, Vlan, VlanTranslationPolicy, VlanTranslationRule, Prefix, IpRange, IpAddress,
    FhrpGroup, FhrpGroupAssignment, ServiceTemplate, Service, AsnRange, Asn,
  ],
  migrations: new URL('./migrations/', import.meta.url),
  contributes: (model) => IPAM_CONTRIBUTIONS[model.key]?.() ?? {},
  // Sized by dcim's `sites`: the addressing of the same sites.
  demo: { sizes: {}, steps: (_sizes, _ctx, part) => ipamDemoSteps(part) },
  operations: ipamOperations,
  routes(router, ctx) {
    const allocations = [
      ['/prefixes/:id/available-ips/', allocationRoute(ctx, Prefix, availableIps(ctx, prefixPool))],
      ['/prefixes/:id/available-prefixes/', allocationRoute(ctx, Prefix, availablePrefixes(ctx))],
      ['/ip-ranges/:id/available-ips/', allocationRoute(ctx, IpRange, availableIps(ctx, rangePool))],
      ['/asn-ranges/:id/available-asns/', allocationRoute(ctx, AsnRange, availableAsns(ctx))],
      ['/vlan-groups/:id/available-vlans/', allocationRoute(ctx, VlanGroup, availableVlans(ctx))],
    ] as const;
    for (const [path, handler] of allocations) router.route(path).get(handler).post(handler).all(methodNotAllowed);
  },

});
