// Service identities' routes (spec 001: /api/permission_api/service/...), one contract for the server and the page.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Space = { space_id: Id };
const Permissions = z.array(z.string().min(1).max(64)).max(100);
/** What the identity is in its space: a member, or an administrator (members, invites ...). */
const Role = z.enum(['member', 'admin']);

const KeyView = z.object({
  key_id: z.string(),
  hint: z.string(),
  created_at: z.number(),
  /** Unix seconds. */
  expire_at: z.number(),
  last_used_at: z.number(),
  status: z.enum(['active', 'expired']),
});
const ServiceView = z.object({
  service_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(z.string()),
  role: Role,
  status: z.enum(['active', 'disabled']),
  keys: z.array(KeyView),
  created_by: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type ServiceView = z.output<typeof ServiceView>;

export const CreateService = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/service/create',
  summary: 'Make a service identity of the space',
  body: z.object({
    ...Space,
    name: z.string().trim().min(1, 'Give the identity a name.').max(100),
    description: z.string().max(1000).default(''),
    permissions: Permissions.default([]),
    role: Role.default('member'),
  }),
  response: z.object({ service: ServiceView }),
});

export const GetService = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/service/get',
  summary: 'One service identity of the space',
  body: z.object({ ...Space, service_id: Id }),
  response: z.object({ service: ServiceView }),
});

export const UpdateService = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/service/update',
  summary: "Change a service identity's name, permissions, role or status (its keys follow at once)",
  body: z.object({
    ...Space,
    service_id: Id,
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(1000).optional(),
    permissions: Permissions.optional(),
    role: Role.optional(),
    status: z.enum(['active', 'disabled']).optional(),
  }),
  response: z.object({ service: ServiceView }),
});

export const DeleteService = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/service/delete',
  summary: 'Delete a service identity: its keys stop working at once',
  body: z.object({ ...Space, service_id: Id }),
  response: z.object({}),
});

export const ListServices = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/service/list',
  summary: "The space's service identities",
  body: z.object({ ...Space }),
  response: z.object({ services: z.array(ServiceView) }),
});

export const CreateServiceKey = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/service/create_key',
  summary: 'A new key for a service identity (answered once; it expires)',
  body: z.object({ ...Space, service_id: Id, duration_day: z.number().int().min(1).max(365).default(90) }),
  response: z.object({ key_id: z.string(), key: z.string(), expire_at: z.number() }),
});

export const DeleteServiceKey = defineEndpoint({
  method: 'POST',
  path: '/api/permission_api/service/delete_key',
  summary: 'Delete a key (it stops working at once)',
  body: z.object({ ...Space, service_id: Id, key_id: Id }),
  response: z.object({}),
});
