// The API apps' internal routes (/api/open/api_apps/...), each a named handler over the service.
import type { ServerContext } from '@tessera/sdk/server';
import {
  ApiAppDeliveries,
  ApiAppEventTypes,
  CreateApiApp,
  DeleteApiApp,
  ListConnectorApiApps,
  ListNormalApiApps,
  PingApiApp,
  RedeliverApiApp,
  SubscribeApiApp,
  UnsubscribeApiApp,
  UpdateApiApp,
} from '../shared/api.ts';
import type { ApiAppService } from './service.ts';

const inBody = { space: { from: 'body' as const, field: 'space_id' } };

export function registerRoutes(ctx: ServerContext, service: ApiAppService): void {
  ctx.route({
    ...CreateApiApp,
    auth: inBody,
    handler: async ({ body, caller }) => ({
      api_app: await service.create({
        spaceId: body.space_id,
        userId: caller!.userId,
        name: body.name,
        appType: body.app_type,
        connectorId: body.connector_id,
      }),
    }),
  });
  ctx.route({
    ...UpdateApiApp,
    auth: inBody,
    handler: async ({ body }) => ({
      api_app: await service.update(body.api_app_id, body.space_id, {
        name: body.name,
        callbackUrl: body.callback_url,
        regenerateToken: body.regenerate_token,
      }),
    }),
  });
  ctx.route({
    ...DeleteApiApp,
    auth: inBody,
    handler: async ({ body }) => (await service.remove(body.api_app_id, body.space_id), {}),
  });
  for (const [endpoint, type] of [
    [ListNormalApiApps, 'normal'],
    [ListConnectorApiApps, 'connector'],
  ] as const)
    ctx.route({
      ...endpoint,
      auth: inBody,
      handler: async ({ body }) => {
        const r = await service.list([body.space_id], type, body.page_size);
        return { items: r.items, has_more: r.has_more };
      },
    });
  for (const [endpoint, on] of [
    [SubscribeApiApp, true],
    [UnsubscribeApiApp, false],
  ] as const)
    ctx.route({
      ...endpoint,
      auth: inBody,
      handler: async ({ body }) => ({
        api_app: await service.subscribe(body.api_app_id, body.space_id, body.event_types, on),
      }),
    });
  ctx.route({ ...ApiAppEventTypes, auth: inBody, handler: () => ({ event_types: service.eventTypes() }) });
  ctx.route({
    ...ApiAppDeliveries,
    auth: inBody,
    handler: ({ body }) => service.deliveries(body.api_app_id, body.space_id, body.page, body.size),
  });
  ctx.route({
    ...RedeliverApiApp,
    auth: inBody,
    handler: async ({ body }) => ({ delivery: await service.redeliver(body.delivery_id, body.space_id) }),
  });
  ctx.route({
    ...PingApiApp,
    auth: inBody,
    handler: async ({ body }) => ({ delivery: await service.ping(body.api_app_id, body.space_id) }),
  });
}
