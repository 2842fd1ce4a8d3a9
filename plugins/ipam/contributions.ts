import { f, type Field } from 'patchbay';
import { DEVICE_INTERFACES, InterfaceVlanField, TaggedVlansField, VM_INTERFACES, type InterfaceOwner } from './fields/interface-vlans.js';
import { PreferredIpField, PrimaryIpField } from './fields/primary-ip.js';
import { PlacedCount } from './fields/placed-count.js';

/** What addressing adds to other plugins' models, by model; each call makes new fields. */
export const IPAM_CONTRIBUTIONS: Record<string, () => Record<string, Field>> = {
  // Devices and virtual device contexts take their primary (and out-of-band) addresses among their own.
  'dcim.device': () => ({
    primary_ip: new PreferredIpField(),
    primary_ip4: new PrimaryIpField('device', 4),
    primary_ip6: new PrimaryIpField('device', 6),
    oob_ip: new PrimaryIpField('device', null),
  }),
  'dcim.virtualdevicecontext': () => ({ primary_ip: new PreferredIpField(), primary_ip4: new PrimaryIpField('vdc', 4), primary_ip6: new PrimaryIpField('vdc', 6) }),
  // Sites list their AS numbers; they and the places around them count the prefixes scoped there.
  'dcim.site': () => ({ asns: f.m2m('ipam.asn', { countAs: 'site_count', filterBy: 'asn', filterName: 'asn', label: 'ASNs', related: 'sites' }), prefix_count: new PlacedCount('site') }),
  'dcim.region': () => ({ prefix_count: new PlacedCount('region') }),
  'dcim.sitegroup': () => ({ prefix_count: new PlacedCount('sitegroup') }),
  'dcim.location': () => ({ prefix_count: new PlacedCount('location') }),
  // Interfaces of devices and of virtual machines carry VLANs and the rest.
  'dcim.interface': () => interfaceAddressing(DEVICE_INTERFACES),
  // Virtual machines take their primary addresses among their interfaces'.
  'virtualization.virtualmachine': () => ({ primary_ip: new PreferredIpField(), primary_ip4: new PrimaryIpField('vm', 4), primary_ip6: new PrimaryIpField('vm', 6) }),
  'virtualization.vminterface': () => interfaceAddressing(VM_INTERFACES),
};

/** VLANs (by mode), a VRF and a VLAN translation policy, and the counts of addresses and FHRP groups. */
function interfaceAddressing(owner: InterfaceOwner): Record<string, Field> {
  return {
    untagged_vlan: new InterfaceVlanField(owner, 'untagged'),
    tagged_vlans: new TaggedVlansField(owner),
    qinq_svlan: new InterfaceVlanField(owner, 'qinq'),
    vlan_translation_policy: f.fk('ipam.vlantranslationpolicy', { nullable: true, onDelete: 'set null' }),
    vrf: f.fk('ipam.vrf', { nullable: true, onDelete: 'set null', filterBy: 'rd', label: 'VRF', related: owner.lists }),
    count_ipaddresses: f.count('ipam.ipaddress', 'assigned_object'),
    count_fhrp_groups: f.count('ipam.fhrpgroupassignment', 'interface'),
  };
}
