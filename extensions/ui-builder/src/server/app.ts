// The published app's calls (/api/ui_builder/v1/app/...): its DSL for the viewer's browser, and its events run as
// the viewer (anonymous viewers of a public app as the publisher, each known by an id of their address). The app's
// access decides who may: anyone, people signed in, or its space's members. Only the workflows its published events
// name run, with the inputs their mappings allow, at most 30 a minute per viewer.
import { fieldOf, valueAt } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import { createHash } from 'node:crypto';
import { ChatBody, GetApp, PreviewEvent, RunAppEvent } from '../shared/api.ts';
import { APP_CHAT_PATH, PREVIEW_CHAT_PATH } from '../render/chat.ts';
import { Dsl, WEB_APP_CONNECTOR, chatsOf } from '../shared/dsl.ts';
import { BotChatsService } from '@tessera/ext-bots/shared';
import type { z } from 'zod';
import { accessProblem, type AppRow, type UiStore } from './store.ts';
import { texts } from './texts.ts';

export function registerAppRoutes(ctx: ServerContext, store: UiStore): void {
  const published = async (id: string, caller?: { userId: string }): Promise<{ a: AppRow; dsl: Dsl }> => {
    const a = await store.db.selectFrom('ui_app').selectAll().where('id', '=', id).executeTakeFirst();
    if (!a?.published_dsl) throw texts.error(404, 'notPublished', { id });
    const problem = await accessProblem(ctx, a, caller);
    if (problem) throw texts.error(problem === 'signIn' ? 401 : 403, problem);
    return { a, dsl: Dsl.parse(JSON.parse(a.published_dsl)) };
  };

  /** Runs an event's workflow with the inputs its mapping allows; answers the variables its outputs set. */
  const run = async (
    a: AppRow,
    dsl: Dsl,
    body: { event_id: string; values: Record<string, unknown>; variables: Record<string, unknown> },
    userId: string,
    viewerId: string | undefined,
    ip: string,
    logId: string,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> => {
    const e = dsl.events.find((x) => x.event_id === body.event_id);
    if (!e) throw texts.error(404, 'noEvent', { id: body.event_id });
    const runner = ctx.optionalService(WorkflowRunnerService);
    if (!runner) throw texts.error(400, 'workflowsOff');
    const input: Record<string, unknown> = {};
    for (const [name, src] of Object.entries(e.action.inputs))
      input[name] =
        src.from === 'value'
          ? src.value
          : src.from === 'component'
            ? body.values[src.component_id]
            : body.variables[src.name];
    const viewer = viewerId ?? `anon:${createHash('sha256').update(ip).digest('hex').slice(0, 16)}`;
    const r = await runner.run({
      spaceId: a.space_id,
      userId,
      workflowId: e.action.workflow_id,
      input,
      signal,
      connectorId: 'ui-app',
      connectorUid: viewer,
      logId,
    });
    if (r.status !== 'success') throw texts.error(400, 'runFailed', { detail: r.error ?? r.status });
    const variables: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(e.action.outputs)) variables[name] = valueAt(r.output ?? {}, path);
    return variables;
  };

  ctx.route({
    ...GetApp,
    auth: 'anonymous',
    rateLimit: { max: 120, key: 'ip' },
    handler: async ({ body, caller }) => {
      const { a, dsl } = await published(body.ui_id, caller);
      return { app: { ui_id: a.id, ui_name: a.name, dsl, published_version: Number(a.published_version) } };
    },
  });
  ctx.route({
    ...RunAppEvent,
    auth: 'anonymous',
    rateLimit: { max: 30, key: 'ip' },
    handler: async ({ body, caller, ip, logId, signal }) => {
      const { a, dsl } = await published(body.ui_id, caller);
      return {
        variables: await run(a, dsl, body, caller?.userId ?? a.published_by, caller?.userId, ip, logId, signal),
      };
    },
  });
  ctx.route({
    ...PreviewEvent,
    auth: {
      space: async (r: { body: { ui_id?: unknown } }) => (await store.app(String(r.body?.ui_id ?? ''))).space_id,
    },
    rateLimit: { max: 60, key: 'caller' },
    handler: async ({ body, caller, ip, logId, signal }) => {
      const a = await store.app(body.ui_id);
      const dsl = Dsl.parse(JSON.parse(a.dsl));
      return { variables: await run(a, dsl, body, caller!.userId, caller!.userId, ip, logId, signal) };
    },
  });

  /**
   * A turn of a chat component: only the bot the component names (in the published DSL, or the draft's for the
   * preview), published to the Web app channel; the visitor's own conversations.
   */
  const chat = async (
    a: AppRow,
    dsl: Dsl,
    body: z.output<typeof ChatBody>,
    userId: string,
    viewer: string,
    logId: string,
  ) => {
    const c = chatsOf(dsl).find((x) => x.id === body.component_id);
    if (!c) throw texts.error(404, 'noChat', { id: body.component_id });
    const chats = ctx.optionalService(BotChatsService);
    if (!chats) throw texts.error(400, 'botsOff');
    return chats
      .startPublished({
        botId: String(c.props.bot_id ?? ''),
        userId,
        endUserId: `app:${viewer}:${body.visitor_id}`.slice(0, 120),
        message: body.query,
        conversationId: body.conversation_id,
        logId,
        connectorId: WEB_APP_CONNECTOR,
      })
      .catch((e) => {
        if (fieldOf(e, 'status') === 400)
          throw texts.error(400, 'botNotPublished', { id: c.id, bot: String(c.props.bot_id ?? '') });
        throw e;
      });
  };
  ctx.route({
    method: 'POST',
    path: APP_CHAT_PATH,
    auth: 'anonymous',
    stream: true,
    rateLimit: { max: 30, key: 'ip' },
    summary: "A turn of a published app's chat with its bot, answered as a stream of Coze's chat events",
    body: ChatBody,
    handler: async ({ body, caller, ip, logId, signal }, reply) => {
      const { a, dsl } = await published(body.ui_id, caller);
      const viewer = caller?.userId ?? `anon-${createHash('sha256').update(ip).digest('hex').slice(0, 16)}`;
      const started = await chat(a, dsl, body, caller?.userId ?? a.published_by, viewer, logId);
      await ctx.service(BotChatsService).stream(started.chat_id, reply.sse(), signal);
    },
  });
  ctx.route({
    method: 'POST',
    path: PREVIEW_CHAT_PATH,
    auth: {
      space: async (r: { body: { ui_id?: unknown } }) => (await store.app(String(r.body?.ui_id ?? ''))).space_id,
    },
    stream: true,
    rateLimit: { max: 30, key: 'caller' },
    summary: "A turn of a chat of the app's draft in the builder's preview (a member, as themselves)",
    body: ChatBody,
    handler: async ({ body, caller, logId, signal }, reply) => {
      const a = await store.app(body.ui_id);
      const started = await chat(a, Dsl.parse(JSON.parse(a.dsl)), body, caller!.userId, caller!.userId, logId);
      await ctx.service(BotChatsService).stream(started.chat_id, reply.sse(), signal);
    },
  });
}
