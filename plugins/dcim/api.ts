/**
 * What other apps may use of dcim (and only apps that list dcim among their dependencies): the cabling graph for
 * their own cable ends, the interface and MAC rules and filters, choice sets, and the demo's devices and cables.
 * Anything else in this folder is dcim's own and may change without notice.
 */

// The cabling graph: a model's objects as cable ends, and the paths traced through them.
export { cabled } from './cabling/cabled.js';
export { nodeOf } from './cabling/nodes.js';
export { retraceIn } from './cabling/paths.js';
export type { CableRole, PassThrough } from './cabling/roles.js';
export { pathsRoute } from './routes/cabling.js';
export { PATHS } from './routes/operations.js';

// Interfaces and MAC addresses: choices, the primary MAC field and rule, and filters that reach them.
export { InterfaceMode, VIRTUAL_INTERFACE_TYPES } from './choices/index.js';
export { PrimaryMacField } from './fields/primary-mac.js';
export { checkPrimaryMac } from './rules/primary-mac.js';
export { chassisInterfaceIds, interfacesWithMacs, macValues } from './rules/interface-filters.js';
export { caseInsensitive, isSet } from './rules/device-filters.js';

// The demo data others build on.
export { DEMO_DEVICES, demoCables, demoPaths } from './demo/cabling.js';
export { demoSites } from './demo/steps.js';
