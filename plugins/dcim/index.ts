import { definePlugin } from 'patchbay';
import { dcimDemoSteps } from './demo/steps.js';
import { DeviceBay, ModuleBay } from './models/components/bays.js';
import { Interface } from './models/components/interface.js';
import { InventoryItem } from './models/components/inventory-item.js';
import { ConsolePort, ConsoleServerPort, FrontPort, PowerOutlet, PowerPort, RearPort } from './models/components/ports.js';
import { DeviceRole } from './models/device-role.js';
import { DeviceType } from './models/device-type.js';
import { Device } from './models/device.js';
import { InventoryItemRole } from './models/inventory-item-role.js';
import { Location } from './models/location.js';
import { MacAddress } from './models/mac-address.js';
import { Manufacturer } from './models/manufacturer.js';
import { ModuleTypeProfile } from './models/module-type-profile.js';
import { ModuleType } from './models/module-type.js';
import { Module } from './models/module.js';
import { Platform } from './models/platform.js';
import { PowerFeed, PowerPanel } from './models/power.js';
import { RackReservation } from './models/rack-reservation.js';
import { RackRole } from './models/rack-role.js';
import { RackType } from './models/rack-type.js';
import { Rack } from './models/rack.js';
import { Region } from './models/region.js';
import { SiteGroup } from './models/site-group.js';
import { Site } from './models/site.js';
import { DeviceBayTemplate, ModuleBayTemplate } from './models/templates/bays.js';
import { InterfaceTemplate } from './models/templates/interface.js';
import { InventoryItemTemplate } from './models/templates/inventory-item.js';
import {
  ConsolePortTemplate, ConsoleServerPortTemplate, FrontPortTemplate, PowerOutletTemplate, PowerPortTemplate, RearPortTemplate,
} from './models/templates/ports.js';
import { VirtualChassis } from './models/virtual-chassis.js';
import { VirtualDeviceContext } from './models/virtual-device-context.js';
import { cableFilters } from './cabling/filters.js';
import { Cable, CablePath, CablePathNode, CableTermination } from './models/cable.js';
import { connectedDeviceRoute, pathsRoute, traceRoute } from './routes/cabling.js';
import { elevationRoute } from './routes/elevation.js';
import { dcimOperations } from './routes/operations.js';

/** Where things are and what they are made of: sites, racks, device types, devices, modules and their components. */
export default definePlugin({
  name: 'dcim',
  label: 'DCIM',
  version: '0.1.0',
  kernel: '^0.1.0',
  dependencies: ['users', 'tenancy'],
  basePath: '/api/dcim/',
  models: [
    Region, SiteGroup, Site, Location, Manufacturer,
    RackRole, RackType, Rack, RackReservation,
    DeviceRole, Platform, DeviceType, ModuleTypeProfile, ModuleType, InventoryItemRole,
    ConsolePortTemplate, ConsoleServerPortTemplate, PowerPortTemplate, PowerOutletTemplate, InterfaceTemplate, RearPortTemplate,
    FrontPortTemplate, ModuleBayTemplate, DeviceBayTemplate, InventoryItemTemplate,
    VirtualChassis, Device, Module, VirtualDeviceContext, MacAddress,
    ConsolePort, ConsoleServerPort, PowerPort, PowerOutlet, Interface, RearPort, FrontPort, ModuleBay, DeviceBay, InventoryItem,
    PowerPanel, PowerFeed, Cable, CableTermination, CablePath, CablePathNode,
  ],
  migrations: new URL('./migrations/', import.meta.url),
  demo: {
    sizes: {
      sites: { default: 10, max: 10000, help: 'sites', part: 100 },
      'devices-per-site': { default: 50, max: 1000, help: 'devices in each site' },
    },
    steps: (sizes, ctx, part) => dcimDemoSteps(sizes, ctx.registry, part),
  },
  setup(ctx) {
    ctx.filters.extend(cableFilters(ctx.registry));
  },
  operations: dcimOperations,
  routes(router, ctx) {
    router.get('/racks/:id/elevation/', elevationRoute(ctx));
    for (const model of [ConsolePort, ConsoleServerPort, PowerPort, PowerOutlet, Interface, PowerFeed]) {
      router.get(`/${model.path}/:id/trace/`, traceRoute(ctx, model.key));
    }
    for (const model of [FrontPort, RearPort]) router.get(`/${model.path}/:id/paths/`, pathsRoute(ctx, model.key));
    router.get('/connected-device/', connectedDeviceRoute(ctx));
  },
});
