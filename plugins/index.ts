import browsable from './browsable/index.js';
import circuits from './circuits/index.js';
import core from './core/index.js';
import dcim from './dcim/index.js';
import extras from './extras/index.js';
import ipam from './ipam/index.js';
import tenancy from './tenancy/index.js';
import users from './users/index.js';
import virtualization from './virtualization/index.js';

/** The built-in apps, enabled on every server; each registers after the apps it declares as dependencies. */
export const builtinPlugins = [users, core, browsable, extras, tenancy, dcim, ipam, virtualization, circuits];
