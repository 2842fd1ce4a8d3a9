import { defineChoices } from 'patchbay';

// NetBox 4.4's choice sets of the ipam app.

export const PrefixStatus = defineChoices([
  ['container', 'Container'],
  ['active', 'Active'],
  ['reserved', 'Reserved'],
  ['deprecated', 'Deprecated'],
]);

export const IpRangeStatus = defineChoices([
  ['active', 'Active'],
  ['reserved', 'Reserved'],
  ['deprecated', 'Deprecated'],
]);

export const IpAddressStatus = defineChoices([
  ['active', 'Active'],
  ['reserved', 'Reserved'],
  ['deprecated', 'Deprecated'],
  ['dhcp', 'DHCP'],
  ['slaac', 'SLAAC'],
]);

export const IpAddressRole = defineChoices([
  ['loopback', 'Loopback'],
  ['secondary', 'Secondary'],
  ['anycast', 'Anycast'],
  ['vip', 'VIP'],
  ['vrrp', 'VRRP'],
  ['hsrp', 'HSRP'],
  ['glbp', 'GLBP'],
  ['carp', 'CARP'],
]);

/** Roles whose addresses may repeat in a VRF (NetBox's IPADDRESS_ROLES_NONUNIQUE). */
export const NONUNIQUE_ROLES: ReadonlySet<string> = new Set(['anycast', 'vip', 'vrrp', 'hsrp', 'glbp', 'carp']);

export const VlanStatus = defineChoices([
  ['active', 'Active'],
  ['reserved', 'Reserved'],
  ['deprecated', 'Deprecated'],
]);

export const VlanQinQRole = defineChoices([
  ['svlan', 'Service'],
  ['cvlan', 'Customer'],
], { name: 'VLANQinQRoleEnum', prefix: 'role' });

// Grouped by vendor in NetBox: Standard, CheckPoint, Cisco, then Other.
export const FhrpProtocol = defineChoices([
  ['vrrp2', 'VRRPv2'],
  ['vrrp3', 'VRRPv3'],
  ['carp', 'CARP'],
  ['clusterxl', 'ClusterXL'],
  ['hsrp', 'HSRP'],
  ['glbp', 'GLBP'],
  ['other', 'Other'],
]);

export const FhrpAuthType = defineChoices([
  ['plaintext', 'Plaintext'],
  ['md5', 'MD5'],
], { name: 'FHRPGroupAuthTypeEnum', prefix: 'authentication' });

export const ServiceProtocol = defineChoices([
  ['tcp', 'TCP'],
  ['udp', 'UDP'],
  ['sctp', 'SCTP'],
], { name: 'ServiceProtocolEnum', prefix: 'role' });
