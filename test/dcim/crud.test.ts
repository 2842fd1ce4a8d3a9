import { crudSuite, SEEDED } from '../helpers/crud.js';
import { referenceModels } from '../helpers/reference.js';
import { seedCables } from '../helpers/seed-cabling.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import type { Body, TestServer } from '../helpers/server.js';
import { seedTenancy } from '../helpers/seed.js';

/** A fresh interface of device 1, to cable. */
const spareInterface = async (n: number, t: TestServer) =>
  (await t.post('/api/dcim/interfaces/', { device: 1, name: `Spare ${n}-${Math.random()}`, type: '1000base-t' })).body as Body;

crudSuite({
  title: 'every dcim endpoint',
  keys: Object.keys(referenceModels('dcim')),
  seed: async (db) => {
    await seedTenancy(db, SEEDED);
    await seedDcim(db, SEEDED);
    await seedCables(db, 'dcim.interface', 'dcim.frontport', 'select i as a_id, i as b_id from generate_series(1, 3) i');
  },
  prepare: {
    // A copy of a cable (or of one of its ends) needs objects no other cable holds.
    'dcim.cable': async (_o, n, t) => {
      const [a, b] = [await spareInterface(n, t), await spareInterface(n, t)];
      return { a_terminations: [{ object_type: 'dcim.interface', object_id: a.id }], b_terminations: [{ object_type: 'dcim.interface', object_id: b.id }] };
    },
    'dcim.cabletermination': async (original, n, t) =>
      ({ termination_id: original.termination_type === 'dcim.interface' ? (await spareInterface(n, t)).id : (await t.post('/api/dcim/front-ports/', {
        device: 1, name: `Spare ${n}-${Math.random()}`, type: '8p8c', rear_port: (await t.post('/api/dcim/rear-ports/', { device: 1, name: `Spare rear ${n}-${Math.random()}`, type: '8p8c' })).body.id,
      })).body.id }),
    'dcim.module': async (original, n, t) => {
      const { body: bay } = await t.post('/api/dcim/module-bays/', { device: original.device.id, name: `Spare ${n}` });
      return { module_bay: bay.id };
    },
    'dcim.frontport': async (original, n, t) => {
      const { body: rear } = await t.post('/api/dcim/rear-ports/', { device: original.device.id, name: `Rear ${n}`, type: '8p8c' });
      return { rear_port: rear.id };
    },
    'dcim.frontporttemplate': async (original, n, t) => {
      const { body: rear } = await t.post('/api/dcim/rear-port-templates/', { device_type: original.device_type.id, name: `Rear ${n}`, type: '8p8c' });
      return { rear_port: rear.id };
    },
    // The seed bridges each interface to another device's, to load that relation; a copy may not.
    'dcim.interface': async () => ({ primary_mac_address: null, bridge: null }),
    'dcim.virtualchassis': async () => ({ master: null }),
    'dcim.virtualdevicecontext': async (_o, n) => ({ identifier: 100 + n }),
    'dcim.device': async (_o, n) => ({ vc_position: 100 + n }),
    'dcim.rackreservation': async (_o, n) => ({ units: [10 + n] }),
  },
});
