import type { Knex } from '@mikro-orm/knex';
import type { Accounts } from './accounts.js';
import type { Request } from 'express';
import type { Settings } from '../config/settings.js';
import { HttpError } from '../base/errors.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';
import type { Db, Row } from '../base/types.js';
import type { Action, Gate } from '../write/gate.js';
import { applyConstraints, type ConstraintSet } from './constraints.js';
import { granted, loadPermissions, type PermissionSet } from './permissions.js';
import type { Principal } from './principal.js';

export type { Action } from '../write/gate.js';

export const forbidden = () => new HttpError(403, { detail: 'You do not have permission to perform this action.' });
export const notAuthenticated = () => new HttpError(403, { detail: 'Authentication credentials were not provided.' });

/** NetBox's IsAdminUser: staff only (a superuser who is not staff is refused too). */
export function requireStaff(req: Request): void {
  if (!req.principal.user) throw notAuthenticated();
  if (!req.principal.user.is_staff) throw forbidden();
}

/** Models no `*` in EXEMPT_VIEW_PERMISSIONS covers: they must be named. */
const NEVER_EXEMPT_BY_WILDCARD = /^users\./;

/** What the request's principal may do: model permissions and the constraints that narrow them. */
export class Access implements Gate {
  private permissions?: Promise<PermissionSet>;
  /** `unrestricted` by action and model: a bulk write asks it for every object it references. */
  private readonly everyObject = new Map<string, Promise<boolean>>();

  constructor(
    readonly principal: Principal,
    private readonly settings: Settings,
    private readonly registry: ModelRegistry,
    private readonly db: Knex,
    private readonly accounts: Accounts,
  ) {}

  get userId(): number | null {
    return this.principal.user?.id ?? null;
  }

  get isSuperuser(): boolean {
    return this.principal.user?.is_superuser === true;
  }

  private exempt(model: Model): boolean {
    const list = this.settings.EXEMPT_VIEW_PERMISSIONS;
    return list.includes(model.key) || (list.includes('*') && !NEVER_EXEMPT_BY_WILDCARD.test(model.key));
  }

  /** The user's permissions, read once per request. */
  private loaded(): Promise<PermissionSet> | undefined {
    const user = this.principal.user;
    if (!user || user.is_superuser) return undefined;
    this.permissions ??= loadPermissions(this.accounts, user.id, this.settings);
    return this.permissions;
  }

  async prepare(): Promise<void> {
    await this.loaded();
  }

  /** The constraint sets of `action` on `model`: null when unrestricted, false when not permitted at all. */
  async grants(model: Model, action: Action): Promise<ConstraintSet[] | null | false> {
    if (this.isSuperuser) return null;
    if (action === 'view' && this.exempt(model) && (this.principal.user || !this.settings.LOGIN_REQUIRED)) return null;
    const permissions = this.loaded();
    if (!permissions) return false;
    const sets = granted(await permissions, model.key, action);
    return sets === undefined ? false : sets;
  }

  unrestricted(model: Model, action: Action): Promise<boolean> {
    const key = `${action} ${model.key}`;
    let answer = this.everyObject.get(key);
    if (!answer) {
      answer = this.grants(model, action).then((sets) => sets === null);
      this.everyObject.set(key, answer);
    }
    return answer;
  }

  async can(model: Model, action: Action): Promise<boolean> {
    return (await this.grants(model, action)) !== false;
  }

  /** Refuses (403) unless the principal holds `action` on `model` at all. */
  async require(model: Model, action: Action): Promise<void> {
    if (await this.can(model, action)) return;
    throw this.principal.user ? forbidden() : notAuthenticated();
  }

  /** Narrows a query over `model` (aliased `t`) to the objects `action` may touch. */
  async restrict(qb: Knex.QueryBuilder, model: Model, action: Action): Promise<void> {
    const sets = await this.grants(model, action);
    if (sets === false) qb.whereRaw('false');
    else if (sets) applyConstraints(qb, model, sets, this.registry, this.db, this.userId);
  }

  /**
   * Written rows must still satisfy the constraints of `action` (or the model's own rule), else 403: one query
   * for all of them, through the write's transaction.
   */
  async verify(db: Db, model: Model, action: 'add' | 'change', rows: Row[], previous: Map<number, Row>): Promise<void> {
    const checked: number[] = [];
    for (const row of rows) {
      const verdict = model.decl.authorize
        ? await model.decl.authorize(row, {
            action,
            previous: previous.get(row.id as number),
            userId: this.userId,
            isSuperuser: this.isSuperuser,
            can: (key, a) => this.can(this.registry.get(key), a),
          })
        : 'check';
      if (verdict === 'check') checked.push(row.id as number);
    }
    if (!checked.length) return;
    const sets = await this.grants(model, action);
    if (sets === null) return;
    if (sets === false) throw forbidden();
    const qb = db(`${model.table} as t`).select('t.id').whereIn('t.id', checked);
    applyConstraints(qb, model, sets, this.registry, db, this.userId);
    if ((await qb).length < checked.length) throw forbidden();
  }
}
