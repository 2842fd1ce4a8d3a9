import { budgetSuite, seededServer, type FilteredBudgets, type ListBudgets } from '../helpers/budgets.js';
import { seedCabling } from '../helpers/seed-cabling.js';
import { seedDcim } from '../helpers/seed-dcim.js';
import { seedConfiguration } from '../helpers/seed-extras.js';
import { seedTenancy } from '../helpers/seed.js';

const server = seededServer(async (db, patchbay) => {
  await seedTenancy(db, 1000);
  await seedDcim(db, 1000);
  await seedCabling(db, patchbay, 1000);
  await seedConfiguration(db, 1000);
});

/**
 * SQL statements per dcim list request: the same at page sizes 1, 50 and 1000. Trees are read deepest first, so
 * that a page of one holds an object with a parent as larger pages do.
 */
const BUDGETS: ListBudgets = {
  '/api/dcim/regions/?ordering=-parent': { full: 8, brief: 5 },
  '/api/dcim/site-groups/?ordering=-parent': { full: 8, brief: 5 },
  // ipam adds asns: one more query for the page's join rows.
  '/api/dcim/sites/': { full: 10, brief: 3 },
  '/api/dcim/locations/?ordering=-name': { full: 10, brief: 5 },
  '/api/dcim/manufacturers/': { full: 5, brief: 3 },
  '/api/dcim/rack-roles/': { full: 5, brief: 4 },
  '/api/dcim/device-roles/?ordering=-parent': { full: 8, brief: 5 },
  '/api/dcim/platforms/?ordering=-parent': { full: 9, brief: 5 },
  '/api/dcim/rack-types/': { full: 5, brief: 4 },
  '/api/dcim/racks/': { full: 11, brief: 4 },
  '/api/dcim/rack-reservations/': { full: 8, brief: 5 },
  '/api/dcim/power-panels/': { full: 7, brief: 4 },
  '/api/dcim/power-feeds/': { full: 16, brief: 4 },
  '/api/dcim/device-types/': { full: 7, brief: 5 },
  '/api/dcim/module-type-profiles/': { full: 4, brief: 3 },
  '/api/dcim/module-types/': { full: 6, brief: 5 },
  '/api/dcim/inventory-item-roles/': { full: 5, brief: 4 },
  '/api/dcim/console-port-templates/': { full: 5, brief: 3 },
  '/api/dcim/console-server-port-templates/': { full: 5, brief: 3 },
  '/api/dcim/power-port-templates/': { full: 5, brief: 3 },
  '/api/dcim/power-outlet-templates/': { full: 6, brief: 3 },
  '/api/dcim/interface-templates/?ordering=-id': { full: 6, brief: 3 },
  '/api/dcim/rear-port-templates/': { full: 5, brief: 3 },
  '/api/dcim/front-port-templates/': { full: 6, brief: 3 },
  '/api/dcim/module-bay-templates/': { full: 5, brief: 3 },
  '/api/dcim/device-bay-templates/': { full: 5, brief: 3 },
  '/api/dcim/inventory-item-templates/?ordering=-id': { full: 9, brief: 4 },
  '/api/dcim/virtual-chassis/': { full: 8, brief: 5 },
  // Config templates nested, and config contexts merged for the page from one statement.
  '/api/dcim/devices/': { full: 18, brief: 3 },
  '/api/dcim/modules/': { full: 11, brief: 10 },
  '/api/dcim/virtual-device-contexts/': { full: 7, brief: 4 },
  '/api/dcim/mac-addresses/': { full: 7, brief: 3 },
  '/api/dcim/console-ports/': { full: 14, brief: 5 },
  '/api/dcim/console-server-ports/': { full: 14, brief: 5 },
  // The link peers and connected endpoints cost queries per kind of object at the far end (at most one per cabled
  // model): power ports are listed by the kind they reach, outlets (B end) and feeds (A end).
  '/api/dcim/power-ports/?cable_end=B': { full: 14, brief: 5 },
  '/api/dcim/power-ports/?cable_end=A': { full: 12, brief: 5 },
  '/api/dcim/power-outlets/': { full: 17, brief: 5 },
  '/api/dcim/cables/': { full: 11, brief: 3 },
  '/api/dcim/cable-terminations/?termination_type=dcim.interface': { full: 9, brief: 6 },
  // ipam adds tagged_vlans: one more query for the page's join rows.
  '/api/dcim/interfaces/?ordering=-id': { full: 30, brief: 5 },
  '/api/dcim/rear-ports/': { full: 10, brief: 5 },
  '/api/dcim/front-ports/': { full: 13, brief: 5 },
  '/api/dcim/module-bays/': { full: 9, brief: 7 },
  '/api/dcim/device-bays/': { full: 5, brief: 4 },
  '/api/dcim/inventory-items/?ordering=-id': { full: 10, brief: 5 },
};

/** Each filter naming related objects costs one query to check they exist. */
const FILTERED: FilteredBudgets = {
  '/api/dcim/sites/': { query: 'region=region-1&group_id=1&tenant=tenant-6&tenant_group_id=2&status=active&q=site', budget: 14 },
  '/api/dcim/locations/': { query: 'region_id=1&site_group=sitegroup-1&site=site-1&ancestor_id=1', budget: 14 },
  '/api/dcim/devices/': {
    query: 'site=site-1&role=role-1&manufacturer=vendor-1&model=type-1&status=active&has_virtual_device_context=true&mac_address=02:00:00:00:00:01',
    budget: 22,
  },
  '/api/dcim/interfaces/': { query: 'device=device1&site=site-1&device_type=Type%201&device_role=role-1&device_status=active&q=port', budget: 34 },
};

budgetSuite('dcim list query budgets', server, BUDGETS, FILTERED);
