// The open API of API apps, as Coze's (/v1/api_apps ...; cozepy's `api_apps` client reads these shapes): a personal
// access token with `api_app.manage` in the app's space.
import { badRequest, forbidden } from '@tessera/sdk';
import type { Caller, ServerContext } from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { z } from 'zod';
import { OpenApiApp, OpenApiAppEvents, OpenApiAppPage, OpenDone, type ApiAppView } from '../shared/api.ts';
import type { ApiAppService } from './service.ts';

export const PERMISSION = 'api_app.manage';
const AppType = z.enum(['normal', 'connector']);
const Paging = {
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  page_token: z.string().max(40).default(''),
};

/** An app as Coze answers one. */
const openApp = (a: ApiAppView): z.output<typeof OpenApiApp> => ({
  id: a.id,
  app_type: a.app_type,
  name: a.name,
  connector_id: a.connector_id,
  callback_url: a.callback_url,
  verify_token: a.verify_token,
});

export function registerOpenApi(ctx: ServerContext, service: ApiAppService): void {
  const spaces = () => ctx.service(SpacesService);
  /** The spaces where the caller may manage apps: member, and (for a token) given the permission there. */
  const manageable = async (caller: Caller) =>
    (await spaces().spacesOf(caller.userId)).filter((s) => caller.tokenAllows?.(PERMISSION, s) ?? true);
  const byApp = {
    space: async (r: { params: { api_app_id?: string } }) => service.spaceOf(String(r.params.api_app_id ?? '')),
  };

  ctx.route({
    method: 'GET',
    path: '/v1/api_apps',
    auth: 'user',
    permission: PERMISSION,
    summary: "The caller's API apps (in the spaces it may manage), newest first",
    query: z.object({ app_type: AppType.optional(), workspace_id: z.string().max(32).optional(), ...Paging }),
    response: OpenApiAppPage,
    handler: async ({ query, caller }) => {
      const all = await manageable(caller!);
      const scope = query.workspace_id ? all.filter((s) => s === query.workspace_id) : all;
      const r = await service.list(scope, query.app_type, query.page_size, query.page_token || undefined);
      return { items: r.items.map(openApp), has_more: r.has_more, next_page_token: r.next };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/v1/api_apps',
    auth: 'user',
    permission: PERMISSION,
    summary: 'Make an API app (in workspace_id, else the personal space); its verify_token is answered once',
    body: z.object({
      app_type: AppType,
      name: z.string().trim().max(100).optional(),
      connector_id: z.string().max(32).optional(),
      workspace_id: z.string().max(32).optional(),
    }),
    response: OpenApiApp,
    handler: async ({ body, caller }) => {
      const space = body.workspace_id ?? (await spaces().personalSpaceOf(caller!.userId));
      if (!(await manageable(caller!)).includes(space))
        throw forbidden(`You may not manage API apps in space ${space} (a member, and a token given ${PERMISSION}).`);
      if (body.app_type === 'normal' && !body.name) throw badRequest('A normal API app needs a name.');
      const app = await service.create({
        spaceId: space,
        userId: caller!.userId,
        name: body.name || `Connector ${body.connector_id ?? ''}`.trim(),
        appType: body.app_type,
        connectorId: body.connector_id ?? '',
      });
      return openApp(app);
    },
  });
  ctx.route({
    method: 'PUT',
    path: '/v1/api_apps/:api_app_id',
    auth: byApp,
    permission: PERMISSION,
    summary: 'Rename an API app or set its callback address (it must answer the challenge)',
    params: z.object({ api_app_id: z.string().max(32) }),
    body: z.object({
      name: z.string().trim().min(1).max(100).optional(),
      callback_url: z.string().trim().max(2000).optional(),
    }),
    response: OpenDone,
    handler: async ({ params, body, spaceId }) => {
      await service.update(params.api_app_id, spaceId!, { name: body.name, callbackUrl: body.callback_url });
      return {};
    },
  });
  ctx.route({
    method: 'DELETE',
    path: '/v1/api_apps/:api_app_id',
    auth: byApp,
    permission: PERMISSION,
    summary: 'Delete an API app',
    params: z.object({ api_app_id: z.string().max(32) }),
    response: OpenDone,
    handler: async ({ params, spaceId }) => (await service.remove(params.api_app_id, spaceId!), {}),
  });
  const events = z.object({ event_types: z.array(z.string().max(64)).min(1).max(50) });
  ctx.route({
    method: 'POST',
    path: '/v1/api_apps/:api_app_id/events',
    auth: byApp,
    permission: PERMISSION,
    summary: 'Subscribe an API app to events',
    params: z.object({ api_app_id: z.string().max(32) }),
    body: events,
    response: OpenDone,
    handler: async ({ params, body, spaceId }) => (
      await service.subscribe(params.api_app_id, spaceId!, body.event_types, true),
      {}
    ),
  });
  ctx.route({
    method: 'DELETE',
    path: '/v1/api_apps/:api_app_id/events',
    auth: byApp,
    permission: PERMISSION,
    summary: 'Unsubscribe an API app from events',
    params: z.object({ api_app_id: z.string().max(32) }),
    body: events,
    response: OpenDone,
    handler: async ({ params, body, spaceId }) => (
      await service.subscribe(params.api_app_id, spaceId!, body.event_types, false),
      {}
    ),
  });
  ctx.route({
    method: 'GET',
    path: '/v1/api_apps/:api_app_id/events',
    auth: byApp,
    permission: PERMISSION,
    summary: 'The events an API app is subscribed to',
    params: z.object({ api_app_id: z.string().max(32) }),
    query: z.object(Paging),
    response: OpenApiAppEvents,
    handler: async ({ params, query, spaceId }) => {
      const app = service.view(await service.app(params.api_app_id, spaceId));
      const names = new Map(service.eventTypes().map((e) => [e.event_type, e.name]));
      const start = Number(query.page_token) || 0;
      const items = app.event_types.slice(start, start + query.page_size).map((t) => ({
        api_app_id: app.id,
        event_type: t,
        name: names.get(t)?.['en-US'] ?? t,
        description: names.get(t)?.['zh-CN'] ?? '',
      }));
      const more = start + query.page_size < app.event_types.length;
      return { items, has_more: more, next_page_token: more ? String(start + query.page_size) : '' };
    },
  });
}
