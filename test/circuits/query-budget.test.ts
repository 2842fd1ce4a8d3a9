import { budgetSuite, seededServer, type FilteredBudgets, type ListBudgets } from '../helpers/budgets.js';
import { seedCables, tracePaths } from '../helpers/seed-cabling.js';
import { seedCircuits } from '../helpers/seed-circuits.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedIpam } from '../helpers/seed-ipam.js';
import { seedTenancy } from '../helpers/seed.js';

const server = seededServer(async (db, patchbay) => {
  await seedTenancy(db, 1000);
  await seedDcim(db, 1000);
  await seedIpam(db, 1000);
  await seedCircuits(db, 1000);
  // Interface i is cabled to circuit i's A end: its path crosses the circuit to provider network i.
  await seedCables(db, 'dcim.interface', 'circuits.circuittermination', "select circuit_id as a_id, id as b_id from circuits_circuittermination where term_side = 'A'");
  await tracePaths(db, patchbay, ['dcim.interface']);
});

/** SQL statements per circuits list request: the same at page sizes 1, 50 and 1000. */
const BUDGETS: ListBudgets = {
  '/api/circuits/providers/': { full: 8, brief: 3 },
  '/api/circuits/provider-accounts/': { full: 4, brief: 2 },
  '/api/circuits/provider-networks/': { full: 4, brief: 2 },
  '/api/circuits/circuit-types/': { full: 4, brief: 3 },
  '/api/circuits/circuits/': { full: 16, brief: 3 },
  // A query per kind of place the page's terminations name (here all sites; five kinds at most), whatever the page size.
  '/api/circuits/circuit-terminations/?term_side=A': { full: 12, brief: 6 },
  '/api/circuits/circuit-groups/': { full: 5, brief: 2 },
  '/api/circuits/circuit-group-assignments/': { full: 7, brief: 6 },
  '/api/circuits/virtual-circuit-types/': { full: 4, brief: 3 },
  '/api/circuits/virtual-circuits/': { full: 7, brief: 3 },
  '/api/circuits/virtual-circuit-terminations/': { full: 9, brief: 8 },
  // What circuits adds to other apps' lists: the sites' circuit count.
  '/api/dcim/sites/': { full: 10, brief: 2 },
};

/** Filters that check the objects they name cost one query each. */
const FILTERED: FilteredBudgets = {
  '/api/circuits/circuits/': { query: 'site_id=1&region=region-1&provider=provider-1&q=XC&provider_network_id=1', budget: 19 },
  '/api/circuits/circuit-terminations/': { query: 'site=site-1&provider=provider-1&q=C-1', budget: 14 },
  '/api/ipam/asns/': { query: 'provider=provider-1', budget: 6 },
  // Interfaces cabled to circuits: their link peers and connected endpoints (provider networks) included.
  '/api/dcim/interfaces/': { query: 'virtual_circuit_id=1', budget: 33 },
};

budgetSuite('circuits list query budgets', server, BUDGETS, FILTERED);
