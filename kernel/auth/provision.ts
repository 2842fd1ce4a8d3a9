import type { Request, Response } from 'express';
import { HttpError } from '../errors.js';
import { send } from '../http/respond.js';
import { checkTexts } from '../http/text.js';
import type { PluginContext } from '../plugin.js';
import { ItemErrors, ValidationError, type ErrorMap } from '../model/types.js';
import { Access } from './access.js';
import { verifyPassword } from './password.js';
import type { AuthUser } from './principal.js';

/**
 * POST /api/users/tokens/provision/: a username and password buy a new token for that user, who must be
 * allowed to add tokens. One message for a wrong username or a wrong password.
 */
export async function provisionToken(req: Request, res: Response, ctx: PluginContext): Promise<void> {
  const body = req.payload;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError({ non_field_errors: ['Invalid data. Expected a dictionary.'] });
  }
  const { username, password, ...tokenFields } = body as Record<string, unknown>;
  const errors: ErrorMap = {};
  if (typeof username !== 'string' || !username) errors.username = ['This field is required.'];
  if (typeof password !== 'string' || !password) errors.password = ['This field is required.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  checkTexts({ username, password });

  const row = (await ctx.db('users_user')
    .select('id', 'username', 'password', 'is_superuser', 'is_staff', 'is_active')
    .where('username', username as string)
    .first()) as (AuthUser & { password: string }) | undefined;
  const valid = await verifyPassword(password as string, row?.password);
  if (!row || !valid || !row.is_active) throw new HttpError(403, { detail: 'Invalid username/password' });

  // The token is created with the permissions of the user who proved their password.
  const user: AuthUser = { id: row.id, username: row.username, is_superuser: row.is_superuser, is_staff: row.is_staff, is_active: row.is_active };
  req.principal = { user, via: 'token', writeEnabled: true };
  req.access = new Access(req.principal, ctx.settings, ctx.registry, ctx.db);
  const Token = ctx.registry.get('users.token');
  try {
    const [token] = await ctx.as(req).write(async (s) => s.render(Token, await s.create(Token, [{ ...tokenFields, user: user.id }]), { created: true }));
    send(req, res, 201, token);
  } catch (err) {
    throw err instanceof ItemErrors ? err.first() : err;
  }
}
