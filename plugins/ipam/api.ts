/**
 * What other apps may use of ipam (and only apps that list ipam among their dependencies): the filters of objects
 * placed in a scope or assigned addresses and VLANs, and the count of objects placed at a site, region or group.
 * Anything else in this folder is ipam's own and may change without notice.
 */
export { PlacedCount } from './fields/placed-count.js';
export { negatable, pointingAt } from './rules/assignment-filters.js';
export { scopedTo } from './rules/scope-filters.js';
export { placeFilters, scopePlaceFilters } from './rules/scope-place-filters.js';
export { present, usableAt, vlansOfInterface } from './rules/vlan-availability.js';
