import { crudSuite, SEEDED } from '../helpers/crud.js';
import { referenceModels } from '../helpers/reference.js';
import { seedCircuits } from '../helpers/seed-circuits.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedTenancy } from '../helpers/seed.js';

crudSuite({
  title: 'every circuits endpoint',
  keys: Object.keys(referenceModels('circuits')),
  seed: async (db) => {
    await seedTenancy(db, SEEDED);
    await seedDcim(db, SEEDED);
    await seedIpam(db, SEEDED);
    await seedCircuits(db, SEEDED);
  },
  // Values that must differ from every other object's: circuit IDs, accounts, sides, interfaces.
  prepare: {
    'circuits.provideraccount': async (_o, n) => ({ account: `X-${n}` }),
    'circuits.circuit': async (_o, n) => ({ cid: `X-${n}` }),
    'circuits.virtualcircuit': async (_o, n) => ({ cid: `VX-${n}` }),
    'circuits.circuittermination': async (original, n, t) => {
      const { body: circuit } = await t.post('/api/circuits/circuits/', { cid: `T-${n}`, provider: 1, type: 1 });
      return { circuit: circuit.id, term_side: original.term_side.value };
    },
    'circuits.circuitgroupassignment': async (_o, n, t) => {
      const { body: group } = await t.post('/api/circuits/circuit-groups/', { name: `Copy ${n}`, slug: `copy-${n}` });
      return { group: group.id };
    },
    'circuits.virtualcircuittermination': async (_o, n, t) => {
      const { body: iface } = await t.post('/api/dcim/interfaces/', { device: 1, name: `vc${n}`, type: 'virtual' });
      return { interface: iface.id };
    },
  },
});
