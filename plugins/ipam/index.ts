import { definePlugin, f, type Field } from '../../kernel/index.js';
import { ipamDemoSteps } from './demo/steps.js';
import { InterfaceVlanField, TaggedVlansField } from './fields/interface-vlans.js';
import { PreferredIpField, PrimaryIpField } from './fields/primary-ip.js';
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
  // Devices and virtual device contexts take their primary (and out-of-band) addresses among their own;
  contributes: (model): Record<string, Field> => {
    if (model.key === 'dcim.device') {
      return { primary_ip: new PreferredIpField(), primary_ip4: new PrimaryIpField('device', 4), primary_ip6: new PrimaryIpField('device', 6), oob_ip: new PrimaryIpField('device', null) };
    }
    if (model.key === 'dcim.virtualdevicecontext') return { primary_ip: new PreferredIpField(), primary_ip4: new PrimaryIpField('vdc', 4), primary_ip6: new PrimaryIpField('vdc', 6) };
    // Sites list their AS numbers.
    if (model.key === 'dcim.site') return { asns: f.m2m('ipam.asn', { countAs: 'site_count', filterBy: 'asn', label: 'ASNs' }) };
    // Interfaces carry VLANs (by mode), a VRF and a VLAN translation policy.
    if (model.key === 'dcim.interface') {
      return {
        untagged_vlan: new InterfaceVlanField('untagged'),
        tagged_vlans: new TaggedVlansField(),
        qinq_svlan: new InterfaceVlanField('qinq'),
        vlan_translation_policy: f.fk('ipam.vlantranslationpolicy', { nullable: true, onDelete: 'set null' }),
        vrf: f.fk('ipam.vrf', { nullable: true, onDelete: 'set null', filterBy: 'rd', label: 'VRF' }),
      };
    }
    return {};
  },
  // Sized by dcim's `sites`: the addressing of the same sites.
  demo: { sizes: {}, steps: (sizes) => ipamDemoSteps(sizes) },
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
