// Single sign-on connections (OpenID Connect) as platform administrators keep them, one contract for the server and
// the settings page. The sign-in itself runs through GET /api/sso/oidc/{connection_id}/start and /api/sso/oidc/callback.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Give each email domain as example.com.');

/** A group mapped to a role in a team space, or (a connection of an enterprise) in one of its organizations. */
export const GroupRole = z
  .object({
    /** A value of the ID token's groups claim. */
    group: z.string().trim().min(1).max(200),
    space_id: z.string().max(32).default(''),
    organization_id: z.string().max(32).default(''),
    role: z.enum(['admin', 'member']),
  })
  .refine(
    (g) => !!g.space_id !== !!g.organization_id,
    'Map each group to a space (space_id) or an organization (organization_id).',
  );

const ConnectionFields = {
  name: z.string().trim().min(1, 'Give the connection a name (it is shown on the sign-in button).').max(100),
  /** The identity provider's issuer; its /.well-known/openid-configuration is read. */
  issuer: z.string().trim().url('The issuer is a URL (https://login.example.com/realms/acme).').max(500),
  client_id: z.string().trim().min(1).max(300),
  /** Write-only: answered masked. */
  client_secret: z.string().max(2000),
  /** Email domains the connection signs in; with `enforce`, those accounts cannot use a password. */
  domains: z.array(Domain).max(50),
  enforce: z.boolean(),
  /** Make an account at the first sign-in of someone without one. */
  jit: z.boolean(),
  groups_claim: z.string().trim().min(1).max(100),
  group_roles: z.array(GroupRole).max(200),
  status: z.enum(['active', 'disabled']),
};

const ConnectionView = z.object({
  id: z.string(),
  ...ConnectionFields,
  /** The enterprise whose admins keep it ('' for the whole studio's, kept by platform administrators). */
  enterprise_id: z.string(),
  /** Where the identity provider sends people back (register it there). */
  redirect_uri: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type ConnectionView = z.output<typeof ConnectionView>;

export const CreateConnection = defineEndpoint({
  method: 'POST',
  path: '/api/sso/oidc/connection/create',
  summary: 'Add an OpenID Connect connection',
  body: z.object({
    ...ConnectionFields,
    client_secret: ConnectionFields.client_secret.default(''),
    domains: ConnectionFields.domains.default([]),
    enforce: ConnectionFields.enforce.default(false),
    jit: ConnectionFields.jit.default(true),
    groups_claim: ConnectionFields.groups_claim.default('groups'),
    group_roles: ConnectionFields.group_roles.default([]),
    status: ConnectionFields.status.default('active'),
    /** A connection of this enterprise (its admins keep it), or '' for the whole studio (platform administrators). */
    enterprise_id: z.string().max(32).default(''),
  }),
  response: z.object({ connection: ConnectionView }),
});

export const UpdateConnection = defineEndpoint({
  method: 'POST',
  path: '/api/sso/oidc/connection/update',
  summary: 'Change a connection (a client secret left out is kept)',
  body: z.object({ id: Id, ...z.object(ConnectionFields).partial().shape }),
  response: z.object({ connection: ConnectionView }),
});

export const DeleteConnection = defineEndpoint({
  method: 'POST',
  path: '/api/sso/oidc/connection/delete',
  summary: 'Delete a connection (its users keep their accounts)',
  body: z.object({ id: Id }),
  response: z.object({}),
});

export const ListConnections = defineEndpoint({
  method: 'POST',
  path: '/api/sso/oidc/connection/list',
  summary: "The OpenID Connect connections you keep (all of them for a platform administrator), or an enterprise's",
  body: z.object({ enterprise_id: z.string().max(32).optional() }),
  response: z.object({ connections: z.array(ConnectionView) }),
});

export const TestConnection = defineEndpoint({
  method: 'POST',
  path: '/api/sso/oidc/connection/test',
  summary: 'Start a test sign-in: open the answered URL; the result is read with test_result (no session, no account)',
  body: z.object({ id: Id }),
  response: z.object({ url: z.string(), test_id: z.string() }),
});

const TestResult = z.object({
  /** pending, ok, failed */
  status: z.string(),
  error: z.string(),
  email: z.string(),
  subject: z.string(),
  groups: z.array(z.string()),
  /** What a real sign-in would do: sign in an existing account, make one, or refuse. */
  outcome: z.string(),
  roles: z.array(z.object({ space_id: z.string(), organization_id: z.string().default(''), role: z.string() })),
  claims: z.record(z.string(), z.unknown()),
});
export type TestResult = z.output<typeof TestResult>;

export const TestConnectionResult = defineEndpoint({
  method: 'POST',
  path: '/api/sso/oidc/connection/test_result',
  summary: 'The result of a test sign-in',
  body: z.object({ test_id: z.string().min(1).max(100) }),
  response: TestResult,
});
