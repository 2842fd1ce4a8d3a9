import { crudSuite, SEEDED } from '../helpers/crud.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedTenancy } from '../helpers/seed.js';

crudSuite({
  title: 'every ipam endpoint',
  keys: [
    'ipam.routetarget', 'ipam.vrf', 'ipam.rir', 'ipam.aggregate', 'ipam.role', 'ipam.vlangroup', 'ipam.vlan', 'ipam.prefix', 'ipam.iprange', 'ipam.ipaddress',
    'ipam.fhrpgroup', 'ipam.fhrpgroupassignment', 'ipam.servicetemplate', 'ipam.service', 'ipam.vlantranslationpolicy', 'ipam.vlantranslationrule',
    'ipam.asnrange', 'ipam.asn',
  ],
  seed: async (db) => {
    await seedTenancy(db, SEEDED);
    await seedDcim(db, SEEDED);
    await seedIpam(db, SEEDED);
  },
  // Values that must differ from every other object's: networks, addresses, numbers, route targets.
  prepare: {
    'ipam.routetarget': async (_o, n) => ({ name: `65001:${n}` }),
    'ipam.vrf': async (_o, n) => ({ rd: `65001:${n}` }),
    'ipam.aggregate': async (_o, n) => ({ prefix: `11.${n}.0.0/16` }),
    'ipam.prefix': async (_o, n) => ({ prefix: `10.200.${n}.0/24` }),
    'ipam.iprange': async (_o, n) => ({ start_address: `10.201.${n}.10/24`, end_address: `10.201.${n}.20/24` }),
    'ipam.ipaddress': async (_o, n) => ({ address: `10.202.0.${n}/24`, nat_inside: null }),
    'ipam.asnrange': async (_o, n) => ({ start: 4200000000 + n * 100, end: 4200000000 + n * 100 + 9 }),
    'ipam.asn': async (_o, n) => ({ asn: 4200000000 + n }),
    'ipam.vlan': async (_o, n) => ({ vid: 1000 + n }),
    'ipam.vlantranslationrule': async (_o, n) => ({ local_vid: 1000 + n, remote_vid: 2000 + n }),
    // A copy sits on another interface (one assignment per interface and group).
    'ipam.fhrpgroupassignment': async (original, n, t) => {
      const { body: iface } = await t.get(`/api/dcim/interfaces/${original.interface_id}/`);
      const { body: other } = await t.post('/api/dcim/interfaces/', { device: iface.device.id, name: `fhrp${n}`, type: 'virtual' });
      return { interface_id: other.id };
    },
  },
});
