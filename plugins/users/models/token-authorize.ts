import { HttpError, type WriteAuthorizer } from 'patchbay';

/**
 * A token for another user needs `users.grant_token` (a permission with action `grant` on users.token);
 * with it, the requester may create (and read back) that token whatever their token constraints say.
 */
export const authorizeToken: WriteAuthorizer = async (row, ctx) => {
  const forSelf = row.user_id === ctx.userId;
  const userKept = ctx.action === 'change' && ctx.previous?.user_id === row.user_id;
  if (forSelf || userKept) return 'check';
  if (ctx.isSuperuser || (await ctx.can('users.token', 'grant'))) return 'allow';
  throw new HttpError(403, { detail: 'This user does not have permission to create tokens for other users.' });
};
