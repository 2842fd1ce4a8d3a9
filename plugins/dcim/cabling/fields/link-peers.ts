import { appendTo, ReadOnlyField, type ModelRegistry, type Walk, type FieldRenderer, type JsonObject, type PropertyDescription, type RenderContext, type Row, type ValueSchema } from 'patchbay';
import { nestedNodes } from '../nested.js';
import { nodeOf, parseNode, type PathNode } from '../nodes.js';
import type { CableRole } from '../roles.js';

/** The models cables attach to (those declaring the `cabled` feature). */
export function cabledModels(registry: ModelRegistry): string[] {
  return registry.all().filter((m) => m.features.has('cabled')).map((m) => m.key);
}

/**
 * `link_peers` and `link_peers_type`: the terminations at the other end of the object's cable, nested. It also
 * marks its model as cabled and carries the model's part in cable paths (`role`).
 */
export class LinkPeersField extends ReadOnlyField {
  constructor(readonly role: CableRole) {
    super();
  }

  override reads(): string[] {
    return ['cable_id', 'cable_end'];
  }

  override describe(): PropertyDescription[] {
    return [
      { ...this.property('link_peers'), type: 'array', items: { type: 'object' } },
      { ...this.property('link_peers_type', 'Link peers type'), type: 'string', nullable: true },
    ];
  }

  protected schema(): ValueSchema {
    return { type: 'array', items: { type: 'object' } };
  }

  /** The objects at the far end of each row's cable, by the end of the cable it is on. */
  private async peers(rows: Row[], ctx: RenderContext): Promise<(row: Row) => PathNode[]> {
    const cables = [...new Set(rows.map((r) => r.cable_id as number | null).filter((id): id is number => id !== null && id !== undefined))];
    const ends = cables.length
      ? ((await ctx.db('dcim_cabletermination').select('cable_id', 'cable_end', 'termination_type_id', 'termination_id').whereIn('cable_id', cables).orderBy('id')) as Row[])
      : [];
    const peersOf = new Map<string, PathNode[]>();
    for (const end of ends) {
      const model = ctx.registry.objectTypes.keyOf(end.termination_type_id as number);
      if (!model) continue;
      const key = `${end.cable_id}:${end.cable_end}`;
      appendTo(peersOf, key, nodeOf(model, end.termination_id as number));
    }
    return (row) => (row.cable_id ? peersOf.get(`${row.cable_id}:${row.cable_end === 'A' ? 'B' : 'A'}`) ?? [] : []);
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const peersOf = await this.peers(rows, ctx);
    const nested = await nestedNodes(rows.flatMap(peersOf), ctx);
    return (row, out) => {
      const far = peersOf(row);
      const peers = far.flatMap((n) => nested.get(n) ?? []) as JsonObject[];
      out.link_peers = peers;
      out.link_peers_type = far.length ? far[0].slice(0, far[0].lastIndexOf(':')) : null;
    };
  }

  /** The peers as a union of the cabled models' types (GraphQL's `LinkPeerType`). */
  override walk(key: string, registry: ModelRegistry): Walk | undefined {
    if (key !== 'link_peers') return undefined;
    return {
      targets: cabledModels(registry),
      many: true,
      union: 'LinkPeerType',
      refs: async (rows, ctx) => {
        const peersOf = await this.peers(rows, ctx);
        return (row) => peersOf(row).map(parseNode);
      },
    };
  }

  override snapshot(): undefined {
    return undefined;
  }
}
