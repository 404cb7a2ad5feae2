// Coze's variables open API for bots: GET /v1/variables (variables.retrieve) and PUT /v1/variables
// (variables.update) as the @coze/api SDK calls them, on the published bot's variables.
import { ApiError, ErrorCode, OpenApiCode, badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import { VariablesSkillSettings } from '../shared.ts';
import { MAX_VALUE, variableStore } from './store.ts';

const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000) || 0;
const notAnApp = () => badRequest('app_id names a project; projects are not available in this studio yet. Give bot_id.', { field: 'app_id' });

export function registerOpenApi(ctx: ServerContext<unknown>) {
  const store = variableStore(ctx);
  const bots = () => ctx.service(BotsService);
  /** The space of the bot a call names; app_id alone, no id, or an unknown bot answer here, before auth. */
  const botSpace = async (botId: unknown, appId: unknown): Promise<string> => {
    if (typeof botId !== 'string' || !botId) throw appId ? notAnApp() : badRequest('Give bot_id.', { field: 'bot_id' });
    const bot = await bots().get(botId);
    if (!bot) throw new ApiError(404, ErrorCode.NOT_FOUND, `There is no bot ${botId} (it may have been deleted).`, '', { openCode: OpenApiCode.NOT_FOUND });
    return bot.space_id;
  };
  /** The published bot's variables (its variables skill as published). */
  const published = async (botId: string) => {
    const settings = await bots().skillSettings(botId, 'variables', 'published');
    const parsed = VariablesSkillSettings.safeParse(settings ?? {});
    return parsed.success ? parsed.data.variables : [];
  };

  ctx.route({
    method: 'GET',
    path: '/v1/variables',
    auth: { space: (r: { query: any }) => botSpace(r.query?.bot_id, r.query?.app_id) },
    permission: 'bot.chat',
    summary: "A user's values of the published bot's variables (defaults where none is set)",
    query: z.object({ bot_id: z.string().max(32).optional(), app_id: z.string().max(32).optional(), connector_id: z.string().max(32).default('1024'), connector_uid: z.string().max(200).optional(), keywords: z.string().max(4000).optional() }),
    handler: async ({ query, caller }) => {
      const variables = await published(query.bot_id!);
      const wanted = query.keywords ? new Set(query.keywords.split(',').map((k) => k.trim()).filter(Boolean)) : undefined;
      const stored = await store.rows({ botId: query.bot_id!, connectorId: query.connector_id, endUserId: query.connector_uid || caller!.userId });
      return {
        items: variables
          .filter((v) => !wanted || wanted.has(v.name))
          .map((v) => {
            const s = stored[v.name];
            return { keyword: v.name, value: s?.value ?? v.default_value, create_time: s ? secs(s.created_at) : 0, update_time: s ? secs(s.updated_at) : 0 };
          }),
      };
    },
  });

  ctx.route({
    method: 'PUT',
    path: '/v1/variables',
    auth: { space: (r: { body: any }) => botSpace(r.body?.bot_id, r.body?.app_id) },
    permission: 'bot.chat',
    summary: "Set a user's values of the published bot's variables",
    body: z.object({
      bot_id: z.string().max(32).optional(),
      app_id: z.string().max(32).optional(),
      connector_id: z.string().max(32).default('1024'),
      connector_uid: z.string().max(200).optional(),
      data: z.array(z.object({ keyword: z.string().min(1).max(64), value: z.string().max(MAX_VALUE, `A value is at most ${MAX_VALUE} characters.`) })).min(1, 'data needs at least one variable.').max(100),
    }),
    handler: async ({ body, caller }) => {
      const variables = await published(body.bot_id!);
      for (const item of body.data) {
        const v = variables.find((x) => x.name === item.keyword);
        if (!v) throw badRequest(`The bot has no variable ${item.keyword}${variables.length ? ` (it has ${variables.map((x) => x.name).join(', ')})` : ' published'}.`, { field: 'data' });
        if (!v.user_editable) throw badRequest(`The variable ${item.keyword} is not set by end users (only the bot and the studio set it).`, { field: 'data' });
      }
      const who = { botId: body.bot_id!, connectorId: body.connector_id, endUserId: body.connector_uid || caller!.userId };
      for (const item of body.data) await store.set(who, item.keyword, item.value);
      return null;
    },
  });
}
