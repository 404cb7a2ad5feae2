// The token-permission list as a contract, apart from identity's shared entry (which every page loads): the token
// form, OAuth apps and service identities read it through @tessera/ext-identity/client.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

/** The permissions a token (an OAuth app, a service identity) can hold, each with its scope: one contract for all. */
export const ListTokenPermissions = defineEndpoint({
  method: 'GET',
  path: '/api/permission_api/pat/list_personal_access_token_support_permissions',
  summary: 'Permissions a token can hold, each with its scope (per workspace, for the account, for an enterprise)',
  query: z.object({}),
  response: z.object({
    permissions: z.array(
      z.object({
        key: z.string(),
        label: z.record(z.string(), z.string()),
        group: z.string().optional(),
        scope: z.enum(['workspace', 'account', 'enterprise']).optional(),
      }),
    ),
  }),
});
