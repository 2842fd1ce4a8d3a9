import { definePlugin, type Field } from 'patchbay';
import { PlacedCount } from '../ipam/api.js';
import { pathsRoute, PATHS } from '../dcim/api.js';
import { circuitsDemoSteps } from './demo/steps.js';
import { CircuitType, VirtualCircuitType } from './models/circuit-kinds.js';
import { Circuit, CircuitTermination } from './models/circuits.js';
import { CircuitGroup, CircuitGroupAssignment } from './models/groups.js';
import { Provider, ProviderAccount, ProviderNetwork } from './models/providers.js';
import { VirtualCircuit, VirtualCircuitTermination } from './models/virtual-circuits.js';
import { filtersElsewhere } from './rules/filters-elsewhere.js';

/** Providers and the circuits they deliver, physical and virtual. */
export default definePlugin({
  name: 'circuits',
  label: 'Circuits',
  version: '0.1.0',
  kernel: '^0.1.0',
  dependencies: ['tenancy', 'dcim', 'ipam'],
  basePath: '/api/circuits/',
  models: [
    Provider, ProviderAccount, ProviderNetwork, CircuitType, Circuit, CircuitTermination, CircuitGroup, CircuitGroupAssignment,
    VirtualCircuitType, VirtualCircuit, VirtualCircuitTermination,
  ],
  migrations: new URL('./migrations/', import.meta.url),
  // Sites count the circuits terminating there (or at one of their locations).
  contributes: (model): Record<string, Field> => (model.key === 'dcim.site' ? { circuit_count: new PlacedCount('site', 'circuits_circuittermination', 'termination') } : {}),
  // Sized by dcim's `sites`: circuits between them.
  demo: { sizes: {}, steps: (_sizes, ctx, part) => circuitsDemoSteps(ctx.registry, part) },
  setup(ctx) {
    ctx.filters.extend(filtersElsewhere());
  },
  operations: { [`GET /${CircuitTermination.path}/{id}/paths/`]: PATHS },
  routes(router, ctx) {
    router.get(`/${CircuitTermination.path}/:id/paths/`, pathsRoute(ctx, CircuitTermination.key));
  },
});
