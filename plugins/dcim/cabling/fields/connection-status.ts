import { ReadOnlyField, type FieldRenderer, type RenderContext, type Row, type ValueSchema } from 'patchbay';
import { nodeOf } from '../nodes.js';
import { pathsFrom } from '../stored-paths.js';

/**
 * `connection_status` of an endpoint nested in another object (an interface inside an IP address, spec §2.3, as
 * NetBox 2 showed it): connected or planned when a complete path starts here, else null.
 */
export class ConnectionStatusField extends ReadOnlyField {
  override get nestedOnly(): boolean {
    return true;
  }

  override reads(): string[] {
    return [];
  }

  protected schema(): ValueSchema {
    return { type: 'object' };
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const paths = await pathsFrom(this.model.key, rows.map((r) => r.id as number), ctx);
    return (row, out) => {
      const path = paths.get(nodeOf(this.model.key, row.id as number));
      out[this.name] = path?.is_complete ? { value: path.is_active, label: path.is_active ? 'Connected' : 'Planned' } : null;
    };
  }

  override snapshot(): undefined {
    return undefined;
  }
}
