import { ForeignKeyField, type WriteContext, type WriteValues } from 'patchbay';

/** The user who created the object, filled by the server (read-only in the API). */
export class CreatedByField extends ForeignKeyField {
  constructor() {
    super('users.user', { nullable: true, readOnly: true, onDelete: 'set null' });
  }

  override fill(ctx: WriteContext, out: WriteValues): void {
    if (ctx.mode === 'create') out.columns[this.column] = ctx.actor.userId;
  }
}
