// The triggers' routes (spec 000, workflow API "Triggers"), one contract for the server and the editor's panel.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const SpaceQuery = { space_id: Id };

export const TriggerConfig = z
  .object({
    /** Cron triggers: five fields (or six with seconds), read in `time_zone`. */
    cron_expr: z.string().trim().max(200).optional(),
    time_zone: z.string().trim().max(64).optional(),
    /** A time passed while the studio was stopped: skipped, or fired once when it is back. */
    missed: z.enum(['skip', 'catch_up']).optional(),
    /** Webhook triggers: the secret in the address, or an HMAC-SHA256 signature header. */
    auth: z.enum(['path', 'hmac']).optional(),
    /** Event triggers: values the event's fields must have (`status: 'fail'`). */
    filters: z.record(z.string().max(64), z.string().max(200)).optional(),
  })
  .strict();

export const TriggerPayload = z
  .object({
    /** Start inputs given every time. */
    parameters: z.record(z.string().max(64), z.unknown()).default({}),
    /** Start field → a dotted path in what the firing brings (`body.city`, `workflow_id`). */
    mapping: z.record(z.string().max(64), z.string().trim().max(200)).default({}),
  })
  .strict();

const TriggerView = z.object({
  trigger_id: z.string(),
  space_id: z.string(),
  workflow_id: z.string(),
  project_id: z.string(),
  name: z.string(),
  trigger_type: z.number(),
  status: z.number(),
  set_type: z.number(),
  /** '' for a cron trigger, 'webhook', or the key of a studio event. */
  event_id: z.string(),
  connector_id: z.string(),
  config: TriggerConfig,
  payload: z.object({ parameters: z.record(z.string(), z.unknown()), mapping: z.record(z.string(), z.string()) }),
  creator: z.string(),
  create_time: z.number(),
  update_time: z.number(),
  /** Seconds; 0 when it will not fire on a time (closed, not a cron trigger). */
  next_fire_time: z.number(),
  last_fire_time: z.number(),
  /** Webhook triggers: the address (its secret part hidden) and the last characters of the secret. */
  webhook: z.object({ url: z.string(), auth: z.enum(['path', 'hmac']), secret_hint: z.string() }).nullable(),
});
export type TriggerView = z.output<typeof TriggerView>;

const EventView = z.object({
  event_id: z.string(),
  trigger_id: z.string(),
  /** What fired it. */
  source: z.enum(['cron', 'webhook', 'event', 'test', 'rerun']),
  run_result: z.number(),
  execute_id: z.string(),
  input: z.record(z.string(), z.unknown()),
  output: z.record(z.string(), z.unknown()).nullable(),
  error: z.string(),
  fire_time: z.number(),
  end_time: z.number(),
  /** Cron firings: the time it was due (seconds), and how many times passed while the studio was stopped. */
  scheduled_time: z.number(),
  missed: z.number(),
});
export type TriggerEventView = z.output<typeof EventView>;

export const SaveTrigger = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/save_trigger',
  summary: 'Create or change a trigger of a workflow (a new webhook trigger answers its secret, once)',
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    trigger_id: Id.optional(),
    name: z.string().trim().min(1, 'Give the trigger a name.').max(100),
    trigger_type: z.union([z.literal(0), z.literal(1)]),
    event_id: z.string().trim().max(64).default(''),
    config: TriggerConfig.default({}),
    payload: TriggerPayload.default({ parameters: {}, mapping: {} }),
    status: z.union([z.literal(0), z.literal(1)]).optional(),
    set_type: z.number().int().min(0).max(4).optional(),
    project_id: z.string().max(32).optional(),
    /** A new secret for a webhook trigger (the old one stops working). */
    regenerate_secret: z.boolean().optional(),
  }),
  response: z.object({ trigger: TriggerView, secret: z.string().optional(), webhook_url: z.string().optional() }),
});

export const DeleteTrigger = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/delete_trigger',
  summary: 'Delete a trigger (it stops firing; its firings are kept)',
  body: z.object({ space_id: Id, trigger_id: Id }),
  response: z.object({}),
});

export const OperatePublishTrigger = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/operate_publish_trigger',
  summary: 'Open (1) or close (0) a trigger; opening needs a published version of the workflow',
  body: z.object({ space_id: Id, trigger_id: Id, status: z.union([z.literal(0), z.literal(1)]) }),
  response: z.object({ trigger: TriggerView }),
});

export const TestRunTrigger = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/testrun_trigger',
  summary: "Fire a trigger now on the workflow's draft, with sample data, and answer the firing when its run ends",
  body: z.object({
    space_id: Id,
    trigger_id: Id,
    /** What a webhook call or event would bring (`{ body: {...} }` for a webhook). */
    data: z.record(z.string(), z.unknown()).default({}),
  }),
  response: z.object({ event: EventView }),
});

export const RerunTriggerEvent = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/rerun_trigger_event',
  summary: 'Run a firing again with the same inputs (on the latest published version)',
  body: z.object({ space_id: Id, event_id: Id }),
  response: z.object({ event: EventView }),
});

export const ListTriggers = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/list_triggers',
  summary: "A workflow's triggers (or the space's, without workflow_id)",
  query: z.object({ ...SpaceQuery, workflow_id: Id.optional() }),
  response: z.object({ triggers: z.array(TriggerView) }),
});

export const GetTrigger = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/get_trigger',
  summary: 'One trigger',
  query: z.object({ ...SpaceQuery, trigger_id: Id }),
  response: z.object({ trigger: TriggerView }),
});

export const ListPublishTrigger = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/list_publish_trigger',
  summary: 'The open triggers of the space (or of one workflow): what fires on the published versions',
  query: z.object({ ...SpaceQuery, workflow_id: Id.optional() }),
  response: z.object({ triggers: z.array(TriggerView) }),
});

export const GetPublishTrigger = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/get_publish_trigger',
  summary: 'One open trigger (not found when it is closed)',
  query: z.object({ ...SpaceQuery, trigger_id: Id }),
  response: z.object({ trigger: TriggerView }),
});

export const ListTriggerEvents = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/list_trigger_events',
  summary: "A trigger's firings, newest first, with their runs",
  query: z.object({
    ...SpaceQuery,
    trigger_id: Id,
    cursor: z.string().max(64).optional(),
    size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  response: z.object({ events: z.array(EventView), has_more: z.boolean(), next_cursor: z.string() }),
});

export const TriggerEventSourcesList = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/trigger_event_sources',
  summary: 'The studio events a trigger can start on, with the filters each offers',
  query: z.object(SpaceQuery),
  response: z.object({
    sources: z.array(
      z.object({
        key: z.string(),
        label: z.record(z.string(), z.string()),
        filters: z.array(
          z.object({
            key: z.string(),
            label: z.record(z.string(), z.string()),
            choices: z.array(z.string()).optional(),
          }),
        ),
      }),
    ),
  }),
});

export const PreviewTriggerCron = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/preview_trigger_cron',
  summary: 'The next times a cron expression fires in a time zone (or why it is not one)',
  body: z.object({
    space_id: Id,
    cron_expr: z.string().trim().min(1).max(200),
    time_zone: z.string().trim().max(64).optional(),
  }),
  response: z.object({ times: z.array(z.number()) }),
});
