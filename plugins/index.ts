import extras from './extras/index.js';
import tenancy from './tenancy/index.js';

/** The built-in apps, enabled on every server, in dependency order. */
export const builtinPlugins = [extras, tenancy];
