import type { TestPatchbay } from './server.js';
import type { TestUser } from './users.js';

/** An object permission as NetBox's API takes it: actions on object types, optionally constrained. */
export interface Grant {
  /** `view`, `add`, `change`, `delete`, or a model's own actions (`render_config`). */
  actions: string[];
  /** `app.model` keys: `dcim.site`, `bgp.session`. */
  objectTypes: string[];
  /** A filter the objects must match (Django's lookups: `{"status": "active"}`, `{"site_id": 3}`), or a list of them (any). */
  constraints?: Record<string, unknown> | Record<string, unknown>[];
}

/** Gives `user` an object permission through the API, as an administrator would. */
export async function grant(kit: TestPatchbay, user: TestUser, g: Grant, name: string): Promise<void> {
  const reply = await kit.post('/api/users/permissions/', {
    name, actions: g.actions, object_types: g.objectTypes, constraints: g.constraints ?? null, users: [user.id],
  });
  if (reply.status !== 201) throw new Error(`patchbay/testing: cannot grant ${JSON.stringify(g)}: ${reply.status} ${reply.text}`);
}
