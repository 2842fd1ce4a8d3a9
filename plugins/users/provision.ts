import type { Request, Response } from 'express';
import { HttpError, send, checkTexts, ItemErrors, ValidationError, Services, type PluginContext, type ErrorMap } from 'patchbay';

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

  const user = await ctx.services.get(Services.accounts).login(username as string, password as string);
  if (!user) throw new HttpError(403, { detail: 'Invalid username/password' });
  // The token is created with the permissions of the user who proved their password.
  const Token = ctx.registry.get('users.token');
  try {
    const [token] = await ctx.asUser(req, user).write(async (s) => s.render(Token, await s.create(Token, [{ ...tokenFields, user: user.id }]), { created: true }));
    send(req, res, 201, token);
  } catch (err) {
    throw err instanceof ItemErrors ? err.first() : err;
  }
}
