import { ReadOnlyField, type FieldRenderer, type JsonObject, type PropertyDescription, type RenderContext, type Row, type ValueSchema } from '../../../../kernel/index.js';
import { nestedNodes } from '../nested.js';
import { nodeOf, type PathNode } from '../nodes.js';
import type { CableRole } from '../roles.js';

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

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const cables = [...new Set(rows.map((r) => r.cable_id as number | null).filter((id): id is number => id !== null && id !== undefined))];
    const ends = cables.length
      ? ((await ctx.db('dcim_cabletermination').select('cable_id', 'cable_end', 'termination_type_id', 'termination_id').whereIn('cable_id', cables).orderBy('id')) as Row[])
      : [];
    const peersOf = new Map<string, PathNode[]>();
    for (const end of ends) {
      const model = ctx.registry.objectTypes.keyOf(end.termination_type_id as number);
      if (!model) continue;
      const key = `${end.cable_id}:${end.cable_end}`;
      peersOf.set(key, [...(peersOf.get(key) ?? []), nodeOf(model, end.termination_id as number)]);
    }
    const nested = await nestedNodes([...peersOf.values()].flat(), ctx);
    return (row, out) => {
      const far = row.cable_id ? peersOf.get(`${row.cable_id}:${row.cable_end === 'A' ? 'B' : 'A'}`) ?? [] : [];
      const peers = far.flatMap((n) => nested.get(n) ?? []) as JsonObject[];
      out.link_peers = peers;
      out.link_peers_type = far.length ? far[0].slice(0, far[0].lastIndexOf(':')) : null;
    };
  }

  override snapshot(): undefined {
    return undefined;
  }
}
