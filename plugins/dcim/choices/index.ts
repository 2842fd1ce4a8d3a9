// NetBox 4.4's choice sets of the dcim app, one file per domain; grouped sets are flattened in their order, with the group as a comment.

export * from './sites-and-locations.js';
export * from './racks.js';
export * from './devices.js';
export * from './modules.js';
export * from './components/console-ports.js';
export * from './components/power-ports.js';
export * from './components/interfaces.js';
export * from './components/wireless.js';
export * from './components/front-rear-ports.js';
export * from './components/inventory-items.js';
export * from './power.js';
export * from './cables.js';
export * from './units.js';
