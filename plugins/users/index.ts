import { Services, definePlugin, provide } from 'patchbay';
import { storedAccounts } from './accounts.js';
import { userCommands } from './commands.js';
import { Group } from './models/group.js';
import { ObjectPermission } from './models/object-permission.js';
import { Token } from './models/token.js';
import { User } from './models/user.js';
import { provisionToken } from './provision.js';

/**
 * Users, groups, object permissions and API tokens, and the accounts service authentication asks (the kernel checks
 * tokens, sessions and permissions; this app stores them).
 */
export default definePlugin({
  name: 'users',
  label: 'Users',
  version: '0.1.0',
  kernel: '*',
  basePath: '/api/users/',
  models: [User, Group, ObjectPermission, Token],
  migrations: new URL('./migrations/', import.meta.url),
  provides: [provide(Services.accounts, (ctx) => storedAccounts(ctx.db))],
  commands: userCommands,
  operations: {
    'POST /tokens/provision/': {
      summary: 'A new token for the user whose username and password are given',
      public: true,
      requestBody: {
        type: 'object',
        properties: {
          username: { type: 'string' }, password: { type: 'string', writeOnly: true }, expires: { type: 'string', format: 'date-time', nullable: true },
          write_enabled: { type: 'boolean' }, description: { type: 'string' },
        },
        required: ['username', 'password'],
      },
      responses: { '201': { description: 'The token, its key shown', schema: { $ref: '#/components/schemas/Token' } } },
    },
  },
  routes(router, ctx) {
    router.post('/tokens/provision/', (req, res) => provisionToken(req, res, ctx));
  },
});
