// The triggers' routes (spec 000: save_trigger ... get_publish_trigger), each a named handler over the service.
import { createHmac, timingSafeEqual, createHash } from 'node:crypto';
import { SchedulesService, StudioEventSources, type ApiRequest, type ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import {
  DeleteTrigger,
  GetPublishTrigger,
  GetTrigger,
  ListPublishTrigger,
  ListTriggerEvents,
  ListTriggers,
  OperatePublishTrigger,
  PreviewTriggerCron,
  RerunTriggerEvent,
  SaveTrigger,
  TestRunTrigger,
  TriggerEventSourcesList,
} from '../shared/api.ts';
import { TriggerStatus } from '../shared/index.ts';
import { refuse, type TriggerService } from './service.ts';

const inBody = { space: { from: 'body' as const, field: 'space_id' } };
const inQuery = { space: { from: 'query' as const, field: 'space_id' } };
/** How far a signed call's timestamp may be from now (replays of an old call are refused). */
const SIGNATURE_TOLERANCE_S = 300;
/** The largest webhook body taken. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

export function registerRoutes(ctx: ServerContext, service: () => TriggerService): void {
  ctx.route({
    ...SaveTrigger,
    auth: inBody,
    handler: ({ body, caller }) => service().save(body, caller!.userId),
  });
  ctx.route({
    ...DeleteTrigger,
    auth: inBody,
    handler: async ({ body }) => (await service().remove(body.space_id, body.trigger_id), {}),
  });
  ctx.route({
    ...OperatePublishTrigger,
    auth: inBody,
    handler: async ({ body }) => ({ trigger: await service().operate(body.space_id, body.trigger_id, body.status) }),
  });
  ctx.route({
    ...TestRunTrigger,
    auth: inBody,
    handler: async ({ body }) => ({ event: await service().test(body.space_id, body.trigger_id, body.data) }),
  });
  ctx.route({
    ...RerunTriggerEvent,
    auth: inBody,
    handler: async ({ body }) => ({ event: await service().rerun(body.space_id, body.event_id) }),
  });
  ctx.route({
    ...ListTriggers,
    auth: inQuery,
    handler: async ({ query }) => ({
      triggers: await service().list(query.space_id, query.workflow_id),
    }),
  });
  ctx.route({
    ...GetTrigger,
    auth: inQuery,
    handler: async ({ query }) => {
      const s = service();
      return { trigger: await s.withNextTime(await s.row(query.space_id, query.trigger_id)) };
    },
  });
  ctx.route({
    ...ListPublishTrigger,
    auth: inQuery,
    handler: async ({ query }) => ({
      triggers: await service().list(query.space_id, query.workflow_id, true),
    }),
  });
  ctx.route({
    ...GetPublishTrigger,
    auth: inQuery,
    handler: async ({ query }) => {
      const s = service();
      const row = await s.row(query.space_id, query.trigger_id);
      if (Number(row.status) !== TriggerStatus.OPEN)
        throw refuse(404, `The trigger ${row.id} is closed: it is not published.`, 'closed', { id: row.id });
      return { trigger: await s.withNextTime(row) };
    },
  });
  ctx.route({
    ...ListTriggerEvents,
    auth: inQuery,
    handler: ({ query }) => service().events(query.space_id, query.trigger_id, query.cursor, query.size ?? 20),
  });
  ctx.route({
    ...TriggerEventSourcesList,
    auth: inQuery,
    handler: () => ({
      sources: ctx
        .registry(StudioEventSources)
        .list()
        .map((s) => ({
          key: s.key,
          label: s.label,
          filters: (s.filters ?? []).map((f) => ({ key: f.key, label: f.label, choices: f.choices })),
        })),
    }),
  });
  ctx.route({
    ...PreviewTriggerCron,
    auth: inBody,
    handler: async ({ body }) => ({
      times: (
        await ctx.service(SchedulesService).preview({ cron: body.cron_expr, timeZone: body.time_zone || undefined }, 5)
      ).map((t) => Math.floor(Date.parse(t) / 1000)),
    }),
  });
  registerWebhook(ctx, service);
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * The address a webhook trigger is called at: `POST /api/trigger/webhook/<id>/<secret>` (the secret in the path), or
 * `POST /api/trigger/webhook/<id>` signed: `X-Tessera-Timestamp: <unix seconds>` and
 * `X-Tessera-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the secret>` (as Stripe and GitHub sign).
 * A JSON body (or none); the call is answered at once with the firing's id, and the run goes through the queue.
 */
function registerWebhook(ctx: ServerContext, service: () => TriggerService): void {
  const handler = async (
    req: ApiRequest<unknown, Record<string, unknown>, { trigger_id: string; secret?: string }>,
  ) => {
    const s = service();
    const { row, secret, config } = await s.webhookTrigger(req.params.trigger_id);
    if ((config.auth ?? 'path') === 'path') {
      if (!req.params.secret || !same(req.params.secret, secret))
        throw refuse(401, 'The secret in the address is wrong: copy the address again from the trigger.', 'badSecret');
    } else {
      const ts = String(req.headers['x-tessera-timestamp'] ?? '');
      const sig = String(req.headers['x-tessera-signature'] ?? '');
      if (!/^\d{1,12}$/.test(ts) || !sig)
        throw refuse(401, 'Sign the call: send X-Tessera-Timestamp and X-Tessera-Signature headers.', 'unsigned');
      if (Math.abs(Date.now() / 1000 - Number(ts)) > SIGNATURE_TOLERANCE_S)
        throw refuse(401, 'The signed call is too old (or its clock is off by more than 5 minutes).', 'stale');
      const expected = `sha256=${createHmac('sha256', secret)
        .update(`${ts}.${req.rawBody ?? ''}`)
        .digest('hex')}`;
      if (!same(sig, expected))
        throw refuse(401, 'The signature does not match the body and the secret.', 'badSignature');
    }
    if ((req.rawBody ?? '').length > MAX_WEBHOOK_BYTES) throw refuse(413, 'The body is larger than 1 MiB.', 'tooLarge');
    if (Number(row.status) !== TriggerStatus.OPEN)
      throw refuse(
        409,
        `The trigger "${row.name}" is closed: open it in the workflow's Triggers panel.`,
        'closedWebhook',
        {
          name: row.name,
        },
      );
    const data = { body: req.body ?? {}, query: req.query ?? {} };
    const event = await s.fire(row, 'webhook', await s.inputOf(row, data, data.body));
    return { event_id: event.event_id };
  };
  for (const path of ['/api/trigger/webhook/:trigger_id', '/api/trigger/webhook/:trigger_id/:secret'])
    ctx.route({
      method: 'POST',
      path,
      auth: 'anonymous',
      rawBody: true,
      // Senders that post forms (chat platforms' slash commands, payment and SMS providers) are taken too.
      formBody: true,
      rateLimit: { max: 600, key: 'ip' },
      params: z.object({ trigger_id: z.string().max(32), secret: z.string().max(100).optional() }),
      response: z.object({ event_id: z.string() }),
      summary:
        'Call a webhook trigger (its secret in the path, or signed with HMAC-SHA256): the workflow runs with the body',
      handler,
    });
}
