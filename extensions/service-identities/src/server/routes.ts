// Service identities' routes, for the space's administrators.
import type { ServerContext } from '@tessera/sdk/server';
import {
  CreateService,
  CreateServiceKey,
  DeleteService,
  DeleteServiceKey,
  GetService,
  ListServices,
  UpdateService,
} from '../shared/api.ts';
import type { ServiceStore } from './store.ts';

const admins = { space: { from: 'body' as const, field: 'space_id' }, role: 'admin' as const };

export function registerRoutes(ctx: ServerContext, store: ServiceStore): void {
  ctx.route({
    ...CreateService,
    auth: admins,
    audit: { action: 'service.create', target: 'name' },
    handler: async ({ body, caller }) => ({
      service: await store.create({
        spaceId: body.space_id,
        userId: caller!.userId,
        name: body.name,
        description: body.description,
        permissions: body.permissions,
        role: body.role,
      }),
    }),
  });
  ctx.route({
    ...GetService,
    auth: admins,
    handler: async ({ body }) => ({ service: await store.view(await store.get(body.space_id, body.service_id)) }),
  });
  ctx.route({
    ...UpdateService,
    auth: admins,
    audit: { action: 'service.update', target: 'service_id' },
    handler: async ({ body }) => ({
      service: await store.update(body.space_id, body.service_id, {
        name: body.name,
        description: body.description,
        permissions: body.permissions,
        role: body.role,
        status: body.status,
      }),
    }),
  });
  ctx.route({
    ...DeleteService,
    auth: admins,
    audit: { action: 'service.delete', target: 'service_id' },
    handler: async ({ body }) => (await store.remove(body.space_id, body.service_id), {}),
  });
  ctx.route({
    ...ListServices,
    auth: admins,
    handler: async ({ body }) => ({ services: await store.list(body.space_id) }),
  });
  ctx.route({
    ...CreateServiceKey,
    auth: admins,
    audit: { action: 'service.key.create', target: 'service_id' },
    handler: ({ body }) => store.createKey(body.space_id, body.service_id, body.duration_day),
  });
  ctx.route({
    ...DeleteServiceKey,
    auth: admins,
    audit: { action: 'service.key.delete', target: 'key_id' },
    handler: async ({ body }) => (await store.deleteKey(body.space_id, body.service_id, body.key_id), {}),
  });
}
