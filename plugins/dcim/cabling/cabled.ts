import { f, type Field, type ModelRegistry } from 'patchbay';
import { ConnectedEndpointsField } from './fields/connected-endpoints.js';
import { ConnectionStatusField } from './fields/connection-status.js';
import { LinkPeersField } from './fields/link-peers.js';
import { MarkConnectedField } from './fields/mark-connected.js';
import { OccupiedField } from './fields/occupied.js';
import type { CableRole } from './roles.js';

/**
 * The fields of an object a cable can attach to (NetBox's CabledObjectModel, and PathEndpoint unless it passes
 * paths on): `mark_connected`, `cable`, `cable_end`, `link_peers`, the connected endpoints and `_occupied` (and the
 * `connection_status` other objects may show when nesting it).
 */
export function cabled(role: CableRole = {}): Record<string, Field> {
  return {
    mark_connected: new MarkConnectedField(),
    cable: f.fk('dcim.cable', { nullable: true, readOnly: true, onDelete: 'set null' }),
    cable_end: f.string({ max: 1, nullable: true, readOnly: true }),
    link_peers: new LinkPeersField(role),
    ...(role.passThrough ? {} : { connected_endpoints: new ConnectedEndpointsField(), connection_status: new ConnectionStatusField() }),
    _occupied: new OccupiedField(),
  };
}

/** A cabled model's part in cable paths; undefined for models cables cannot attach to. */
export function cableRole(registry: ModelRegistry, key: string): CableRole | undefined {
  const model = registry.find(key);
  const field = model && registry.fieldOf(model, 'link_peers');
  return field instanceof LinkPeersField ? field.role : undefined;
}

/** Whether paths start and end at objects of `key` (they have `connected_endpoints`). */
export function isPathEndpoint(registry: ModelRegistry, key: string): boolean {
  const role = cableRole(registry, key);
  return role !== undefined && !role.passThrough;
}
