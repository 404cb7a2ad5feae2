// The API apps' internal routes (spec 001, "Developer backend": /api/open/api_apps/...), one contract for the server
// and the page. The open API (/v1/api_apps) answers Coze's shapes (server/open.ts).
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Space = { space_id: Id };

const AppView = z.object({
  id: z.string(),
  space_id: z.string(),
  app_type: z.enum(['normal', 'connector']),
  name: z.string(),
  connector_id: z.string(),
  callback_url: z.string(),
  /** The signing secret: in full when made (or renewed), otherwise its last characters. */
  verify_token: z.string(),
  event_types: z.array(z.string()),
  creator: z.string(),
  create_time: z.number(),
  update_time: z.number(),
});
export type ApiAppView = z.output<typeof AppView>;

const AttemptView = z.object({
  attempt: z.number(),
  status_code: z.number(),
  response: z.string(),
  error: z.string(),
  duration_ms: z.number(),
  time: z.number(),
});
const DeliveryView = z.object({
  delivery_id: z.string(),
  api_app_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  /** pending, retrying, succeeded, failed */
  status: z.string(),
  attempts: z.number(),
  next_attempt_time: z.number(),
  payload: z.record(z.string(), z.unknown()),
  create_time: z.number(),
  history: z.array(AttemptView),
});
export type DeliveryView = z.output<typeof DeliveryView>;

export const CreateApiApp = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/create',
  summary: 'Make an API app of the space (its signing secret is answered once)',
  body: z.object({
    ...Space,
    name: z.string().trim().min(1, 'Give the app a name.').max(100),
    app_type: z.enum(['normal', 'connector']).default('normal'),
    connector_id: z.string().max(32).default(''),
  }),
  response: z.object({ api_app: AppView }),
});

export const UpdateApiApp = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/update',
  summary: 'Rename an API app or set its callback address (checked: it must answer the challenge)',
  body: z.object({
    ...Space,
    api_app_id: Id,
    name: z.string().trim().min(1).max(100).optional(),
    callback_url: z.string().trim().max(2000).optional(),
    /** A new signing secret (answered once); the old one stops signing. */
    regenerate_token: z.boolean().optional(),
  }),
  response: z.object({ api_app: AppView }),
});

export const DeleteApiApp = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/delete',
  summary: 'Delete an API app (nothing more is delivered to it)',
  body: z.object({ ...Space, api_app_id: Id }),
  response: z.object({}),
});

const ListBody = z.object({ ...Space, page_size: z.number().int().min(1).max(100).default(50) });
const ListAnswer = z.object({ items: z.array(AppView), has_more: z.boolean() });
export const ListNormalApiApps = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/list_normal',
  summary: "The space's API apps",
  body: ListBody,
  response: ListAnswer,
});
export const ListConnectorApiApps = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/list_connector',
  summary: "The space's connector API apps (callbacks of a publishing channel)",
  body: ListBody,
  response: ListAnswer,
});

const Subscription = z.object({ ...Space, api_app_id: Id, event_types: z.array(z.string().max(64)).min(1).max(50) });
export const SubscribeApiApp = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/subscribe',
  summary: 'Subscribe an API app to events (their callbacks start with the next event)',
  body: Subscription,
  response: z.object({ api_app: AppView }),
});
export const UnsubscribeApiApp = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/unsubscribe',
  summary: 'Stop an API app receiving events',
  body: Subscription,
  response: z.object({ api_app: AppView }),
});

export const ApiAppEventTypes = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/event_types',
  summary: 'The events an API app can subscribe to',
  body: z.object(Space),
  response: z.object({
    event_types: z.array(z.object({ event_type: z.string(), name: z.record(z.string(), z.string()) })),
  }),
});

export const ApiAppDeliveries = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/deliveries',
  summary: "An API app's deliveries, newest first, each with its attempts and the receiver's answers",
  body: z.object({
    ...Space,
    api_app_id: Id,
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
  }),
  response: z.object({ deliveries: z.array(DeliveryView), total: z.number() }),
});

export const RedeliverApiApp = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/redeliver',
  summary: 'Send a delivery again now (by hand, whatever its state)',
  body: z.object({ ...Space, delivery_id: Id }),
  response: z.object({ delivery: DeliveryView }),
});

export const PingApiApp = defineEndpoint({
  method: 'POST',
  path: '/api/open/api_apps/ping',
  summary: 'Send the app a test event (`ping`) and answer how the receiver took it',
  body: z.object({ ...Space, api_app_id: Id }),
  response: z.object({ delivery: DeliveryView }),
});

// ---- the open API's answers (Coze's shapes, as cozepy's api_apps client reads them)

/** An app as Coze answers one. */
export const OpenApiApp = z.object({
  id: z.string(),
  app_type: z.enum(['normal', 'connector']),
  name: z.string(),
  connector_id: z.string(),
  callback_url: z.string(),
  verify_token: z.string(),
});
export const OpenApiAppPage = z.object({
  items: z.array(OpenApiApp),
  has_more: z.boolean(),
  next_page_token: z.string(),
});
export const OpenApiAppEvents = z.object({
  items: z.array(
    z.object({ api_app_id: z.string(), event_type: z.string(), name: z.string(), description: z.string() }),
  ),
  has_more: z.boolean(),
  next_page_token: z.string(),
});
export const OpenDone = z.object({});
