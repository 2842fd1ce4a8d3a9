import { randomBytes } from 'node:crypto';
import { Field, anyOf, keyDigest, FilterError, StringField, ValidationError, type PropertyDescription, type ValueSchema, type Column, type CommonOptions, type WriteValues, type QueryFilter, type Comparison, type ModelRegistry, type FieldRenderer, type Json, type RenderContext, type Row } from 'patchbay';
import { hashPassword, passwordProblem } from './password.js';

/** Write-only: the written password is checked, hashed with scrypt and never rendered. */
export class PasswordField extends Field<CommonOptions> {
  override get secret(): boolean {
    return true;
  }

  columns(): Column[] {
    return [{ name: this.name, type: 'varchar(255)', nullable: false }];
  }

  /** A hash orders nothing. */
  override order(): void {}

  prepare(): FieldRenderer {
    return () => {};
  }

  protected schema(): ValueSchema {
    return { type: 'string' };
  }

  override describe(registry: ModelRegistry): PropertyDescription[] {
    return super.describe(registry).map((p) => ({ ...p, writeOnly: true }));
  }

  async parse(body: Record<string, unknown>, _ctx: unknown, out: WriteValues): Promise<void> {
    const value = body[this.name];
    if (typeof value !== 'string' || value === '') throw ValidationError.of(this.name, value === '' || value === null ? 'This field may not be blank.' : 'Not a valid string.');
    const problem = passwordProblem(value);
    if (problem) throw ValidationError.of(this.name, problem);
    out.columns[this.name] = await hashPassword(value);
  }

  /** Never recorded in the change log. */
  override snapshot(): undefined {
    return undefined;
  }
}

/**
 * A token's key: 40 hex characters, generated when not given. Rendered only when ALLOW_TOKEN_RETRIEVAL
 * is true, or in the response that created the token.
 */
export class TokenKeyField extends StringField {
  constructor() {
    super({ max: 40, required: false, unique: true });
  }

  override get secret(): boolean {
    return true;
  }

  override columns(): Column[] {
    return [
      { name: 'key', type: 'varchar(40)', nullable: false },
      { name: 'key_digest', type: 'varchar(64)', nullable: false },
    ];
  }

  override createDefault(): Json {
    return randomBytes(20).toString('hex');
  }

  protected override checkFormat(text: string): void {
    if (!/^[0-9a-fA-F]{40}$/.test(text)) throw 'Enter a valid key: 40 hexadecimal characters.';
  }

  override parse(body: Record<string, unknown>, _ctx: unknown, out: WriteValues): void {
    const key = (this.parseValue(body[this.name]) as string).toLowerCase();
    out.columns.key = key;
    out.columns.key_digest = keyDigest(key);
  }

  /** Never recorded in the change log. */
  override snapshot(): undefined {
    return undefined;
  }

  override prepare(_rows: Row[], ctx: RenderContext): FieldRenderer {
    const visible = ctx.settings.ALLOW_TOKEN_RETRIEVAL || ctx.created === true;
    return (row, outObj) => {
      if (visible) outObj.key = row.key as string;
    };
  }

  /** `?key=<40 hex>`: whole keys only, matched through their digest; no lookup may reveal part of a key. */
  override filters(): Record<string, QueryFilter> {
    return { key: { suffixes: [], build: (_s, values) => anyOf(['key'], values, false) } };
  }

  override condition(c: Comparison): void {
    const keys = c.lookup === 'exact' ? [c.value] : c.lookup === 'in' && Array.isArray(c.value) ? c.value : undefined;
    if (c.rest.length || !keys) throw new FilterError('A token key can only be matched whole.');
    c.qb.whereIn(`${c.alias}.key_digest`, keys.map((k) => keyDigest(String(k).toLowerCase())));
  }

  /** Secrets order nothing. */
  override order(): void {}
}
