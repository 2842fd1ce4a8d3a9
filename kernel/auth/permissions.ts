import type { Settings } from '../config/settings.js';
import type { Accounts } from './accounts.js';
import { constraintSets, type ConstraintSet } from './constraints.js';

/** For each `app.model:action`, the constraint sets granted (ORed); null means unrestricted. */
export type PermissionSet = Map<string, ConstraintSet[] | null>;

const grantKey = (model: string, action: string) => `${model}:${action}`;

function grant(set: PermissionSet, model: string, action: string, sets: ConstraintSet[] | null): void {
  const key = grantKey(model, action);
  if (!set.has(key)) set.set(key, sets);
  else {
    const existing = set.get(key)!;
    set.set(key, existing === null || sets === null ? null : [...existing, ...sets]);
  }
}

/** `users.view_token` → `['users.token', 'view']`. */
function parsePermissionName(name: string): [string, string] | undefined {
  const m = /^([a-z0-9_]+)\.([a-z_]+)_([a-z0-9]+)$/.exec(name);
  return m ? [`${m[1]}.${m[3]}`, m[2]] : undefined;
}

/** DEFAULT_PERMISSIONS plus every enabled object permission given to the user or to one of their groups. */
export async function loadPermissions(accounts: Accounts, userId: number, settings: Settings): Promise<PermissionSet> {
  const set: PermissionSet = new Map();
  for (const [name, constraints] of Object.entries(settings.DEFAULT_PERMISSIONS)) {
    const parsed = parsePermissionName(name);
    if (parsed) grant(set, parsed[0], parsed[1], constraintSets(constraints));
  }
  const rows = await accounts.grants(userId);
  for (const row of rows) {
    for (const model of row.object_types) for (const action of row.actions) grant(set, model, action, constraintSets(row.constraints));
  }
  return set;
}

export function granted(set: PermissionSet, model: string, action: string): ConstraintSet[] | null | undefined {
  return set.get(grantKey(model, action));
}
