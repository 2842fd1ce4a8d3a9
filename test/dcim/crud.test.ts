import { crudSuite, SEEDED } from '../helpers/crud.js';
import { referenceModels } from '../helpers/reference.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedTenancy } from '../helpers/seed.js';

/** The reference's dcim models, but those the cabling issue brings (the reference test keeps that list). */
const CABLING = new Set(['dcim.cable', 'dcim.cabletermination']);

crudSuite({
  title: 'every dcim endpoint',
  keys: Object.keys(referenceModels('dcim')).filter((k) => !CABLING.has(k)),
  seed: async (db) => {
    await seedTenancy(db, SEEDED);
    await seedDcim(db, SEEDED);
  },
  prepare: {
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
