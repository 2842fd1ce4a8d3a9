import { ValidationError, defineModel, f, loadDisplays, type RenderContext, type Row } from 'patchbay';
import { VIRTUAL_INTERFACE_TYPES } from '../../dcim/api.js';
import { CircuitStatus, VirtualCircuitTerminationRole } from '../choices.js';

/** A virtual connection across a provider network, between two or more interfaces. */
export const VirtualCircuit = defineModel('circuits.virtualcircuit', {
  path: 'virtual-circuits',
  verboseName: 'virtual circuit',
  fields: {
    cid: f.string({ max: 100, label: 'Circuit ID' }),
    provider_network: f.fk('circuits.providernetwork', { onDelete: 'protect' }),
    provider_account: f.fk('circuits.provideraccount', { nullable: true, onDelete: 'protect', filterBy: 'account' }),
    type: f.fk('circuits.virtualcircuittype', { onDelete: 'protect', countAs: 'virtual_circuit_count', related: 'virtual_circuits' }),
    status: f.choice(CircuitStatus, { default: 'active' }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['provider_network', 'cid'] }, { fields: ['provider_account', 'cid'] }],
  brief: ['provider_network', 'cid', 'description'],
  display: (row) => String(row.cid),
  displayUses: ['cid'],
  ordering: ['provider_network', 'provider_account', 'cid'],
  search: ['cid', 'description', 'comments'],
  relatedFilters: { provider: 'provider_network__provider' },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
  async validate(row, ctx) {
    if (!row.provider_account_id) return;
    const [account, network] = await Promise.all([
      ctx.stored(ctx.registry.get('circuits.provideraccount'), row.provider_account_id as number),
      ctx.stored(ctx.registry.get('circuits.providernetwork'), row.provider_network_id as number),
    ]);
    if (account && network && account.provider_id !== network.provider_id) {
      throw ValidationError.of('provider_account', 'The assigned account must belong to the provider of the assigned network.');
    }
  },
});

/** `VC1: Peer termination`. */
async function terminationDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const circuits = await loadDisplays(VirtualCircuit, rows.map((r) => r.virtual_circuit_id as number), ctx);
  return new Map(rows.map((r) => [r.id as number, `${circuits.get(r.virtual_circuit_id as number) ?? ''}: ${VirtualCircuitTerminationRole.label(r.role as string)} termination`]));
}

/** A virtual circuit's end on a (virtual) interface, as a peer, hub or spoke. */
export const VirtualCircuitTermination = defineModel('circuits.virtualcircuittermination', {
  path: 'virtual-circuit-terminations',
  verboseName: 'virtual circuit termination',
  fields: {
    virtual_circuit: f.fk('circuits.virtualcircuit', { onDelete: 'cascade', related: 'terminations' }),
    role: f.choice(VirtualCircuitTerminationRole, { default: 'peer' }),
    interface: f.fk('dcim.interface', { onDelete: 'cascade', unique: true }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['virtual_circuit', 'role', 'interface', 'description'],
  displayLoader: terminationDisplays,
  displayUses: ['virtual_circuit', 'role'],
  ordering: ['virtual_circuit', 'role', 'id'],
  parent: 'virtual_circuit',
  relatedFilters: { provider: 'virtual_circuit__provider_network__provider', provider_account: 'virtual_circuit__provider_account.account', provider_network: 'virtual_circuit__provider_network' },
  search: ['virtual_circuit__cid', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
  async validate(row, ctx) {
    const iface = await ctx.stored(ctx.registry.get('dcim.interface'), row.interface_id as number);
    if (iface && !VIRTUAL_INTERFACE_TYPES.has(iface.type as string)) throw ValidationError.of('interface', 'Virtual circuits may be terminated only to virtual interfaces.');
  },
});
