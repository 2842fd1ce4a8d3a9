import { definePlugin } from '../../kernel/index.js';
import { DeviceRole } from './models/device-role.js';
import { Location } from './models/location.js';
import { Manufacturer } from './models/manufacturer.js';
import { Platform } from './models/platform.js';
import { RackReservation } from './models/rack-reservation.js';
import { RackRole } from './models/rack-role.js';
import { RackType } from './models/rack-type.js';
import { Rack } from './models/rack.js';
import { Region } from './models/region.js';
import { SiteGroup } from './models/site-group.js';
import { Site } from './models/site.js';

/** Where things are and what they are made of: sites, racks, device types, devices and their components. */
export default definePlugin({
  name: 'dcim',
  label: 'DCIM',
  version: '0.1.0',
  kernel: '^0.1.0',
  dependencies: ['tenancy'],
  basePath: '/api/dcim/',
  models: [Region, SiteGroup, Site, Location, Manufacturer, RackRole, RackType, Rack, RackReservation, DeviceRole, Platform],
  migrations: new URL('./migrations/', import.meta.url),
});
