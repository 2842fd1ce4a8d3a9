import {
  ReadOnlyField, parseBoolean, lastValue,
  type ModelRegistry, type Walk, type FieldRenderer, type JsonObject, type PropertyDescription, type QueryFilter, type RenderContext, type Row, type ValueSchema,
} from 'patchbay';
import { nestedNodes } from '../nested.js';
import { nodeOf, parseNode } from '../nodes.js';
import { cabledModels } from './link-peers.js';

/** Where a path may end besides cabled objects: a circuit's provider network. */
const PATH_ENDS = ['circuits.providernetwork'];
import { destinations, pathsFrom } from '../stored-paths.js';

/**
 * The cable path starting at an endpoint (the path listing it among its origins) read as `connected_endpoints`
 * (the far end of a complete path, nested), `connected_endpoints_type` and `connected_endpoints_reachable`;
 * `?connected=`.
 */
export class ConnectedEndpointsField extends ReadOnlyField {
  override reads(): string[] {
    return [];
  }

  override describe(): PropertyDescription[] {
    return [
      { ...this.property('connected_endpoints'), type: 'array', items: { type: 'object' }, nullable: true },
      { ...this.property('connected_endpoints_type', 'Connected endpoints type'), type: 'string', nullable: true },
      { ...this.property('connected_endpoints_reachable', 'Connected endpoints reachable'), type: 'boolean', nullable: true },
    ];
  }

  protected schema(): ValueSchema {
    return { type: 'array', items: { type: 'object' } };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const byOrigin = await pathsFrom(this.model.key, rows.map((r) => r.id as number), ctx);
    const nested = await nestedNodes([...byOrigin.values()].flatMap(destinations), ctx);
    return (row, out) => {
      const path = byOrigin.get(nodeOf(this.model.key, row.id as number));
      const far = destinations(path);
      out.connected_endpoints = far.length ? (far.flatMap((n) => nested.get(n) ?? []) as JsonObject[]) : null;
      out.connected_endpoints_type = far.length ? far[0].slice(0, far[0].lastIndexOf(':')) : null;
      out.connected_endpoints_reachable = path ? path.is_complete && path.is_active : null;
    };
  }

  /** The far ends as a union (GraphQL's `ConnectedEndpointType`): cabled objects, or a circuit's provider network. */
  override walk(key: string, registry: ModelRegistry): Walk | undefined {
    if (key !== 'connected_endpoints') return undefined;
    return {
      targets: [...cabledModels(registry), ...PATH_ENDS.filter((k) => registry.find(k))],
      many: true,
      union: 'ConnectedEndpointType',
      refs: async (rows, ctx) => {
        const byOrigin = await pathsFrom(this.model.key, rows.map((r) => r.id as number), ctx);
        return (row) => destinations(byOrigin.get(nodeOf(this.model.key, row.id as number))).map(parseNode);
      },
    };
  }

  /** `?connected=true`: a complete path starts here (NetBox's `filter_connected`). */
  override filters(): Record<string, QueryFilter> {
    return {
      connected: {
        suffixes: [],
        value: { type: 'boolean' },
        build: (_suffix, values) => {
          const connected = parseBoolean(lastValue(values));
          return {
            op: 'sql',
            condition: (qb, alias) => {
              const complete = `exists (select 1 from dcim_cablepathnode n join dcim_cablepath p on p.id = n.path_id
                where n.node = ? || ${alias}.id and n.origin and p.is_complete)`;
              qb.whereRaw(connected ? complete : `not ${complete}`, [`${this.model.key}:`]);
            },
          };
        },
      },
    };
  }

  override snapshot(): undefined {
    return undefined;
  }
}
