// Coze's memory variable calls for the bot editor (/api/memory/variable/get|upsert|delete|get_meta): the
// draft's variables and the values the debug chat has for the caller.
import { badRequest, notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import { ProjectsService } from '@tessera/ext-projects/shared';
import { z } from 'zod';
import { DebugValues, NoAnswer, VariableMetaMap, VariablesSkillSettings } from '../shared.ts';
import { MAX_VALUE, variableStore } from './store.ts';

/** The connector of the editor's debug chat. */
export const DEBUG_CONNECTOR = 'debug';
/** Coze's VariableChannel.Custom and VariableType.KVVariable. */
const CUSTOM = 1;
const KV = 1;
/** VariableChannel.APP: a project's variables. */
const APP = 5;
const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000) || 0;

export function registerMemoryApi(ctx: ServerContext<unknown>) {
  const store = variableStore(ctx);
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  /** The draft's variables of a bot of the space. */
  const draft = async (spaceId: string, botId: string) => {
    const bot = await ctx.service(BotsService).get(botId);
    if (!bot || bot.space_id !== spaceId) throw notFound(`There is no bot ${botId} in this space.`);
    const parsed = VariablesSkillSettings.safeParse(
      (await ctx.service(BotsService).skillSettings(botId, 'variables', 'draft')) ?? {},
    );
    return parsed.success ? parsed.data.variables : [];
  };
  const Bot = z.object({ space_id: z.string().min(1), bot_id: z.string().min(1).max(32) });

  ctx.route({
    method: 'POST',
    path: '/api/memory/variable/get',
    auth: inSpace,
    summary: "The draft's variables with the values the debug chat has for you (create_time 0: the default)",
    body: Bot.extend({ keywords: z.array(z.string().max(64)).max(100).optional() }),
    response: DebugValues,
    handler: async ({ body, caller }) => {
      const variables = await draft(body.space_id, body.bot_id);
      const stored = await store.rows({ botId: body.bot_id, connectorId: DEBUG_CONNECTOR, endUserId: caller!.userId });
      const wanted = body.keywords?.length ? new Set(body.keywords) : undefined;
      return {
        memories: variables
          .filter((v) => !wanted || wanted.has(v.name))
          .map((v) => {
            const s = stored[v.name];
            return {
              keyword: v.name,
              value: s?.value ?? v.default_value,
              create_time: s ? secs(s.created_at) : 0,
              update_time: s ? secs(s.updated_at) : 0,
              is_system: false,
              prompt_disabled: false,
              schema: '{"type":"string"}',
            };
          }),
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/variable/upsert',
    auth: inSpace,
    summary: "Set values of the draft's variables for your debug chat",
    body: Bot.extend({
      data: z
        .array(
          z.object({
            keyword: z.string().min(1).max(64),
            value: z.string().max(MAX_VALUE, `A value is at most ${MAX_VALUE} characters.`),
          }),
        )
        .min(1)
        .max(100),
    }),
    response: NoAnswer,
    handler: async ({ body, caller }) => {
      const variables = await draft(body.space_id, body.bot_id);
      for (const item of body.data)
        if (!variables.some((v) => v.name === item.keyword))
          throw badRequest(`The bot has no variable ${item.keyword}.`, { field: 'data' });
      for (const item of body.data)
        await store.set(
          { botId: body.bot_id, connectorId: DEBUG_CONNECTOR, endUserId: caller!.userId },
          item.keyword,
          item.value,
        );
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/variable/delete',
    auth: inSpace,
    summary: 'Forget values of your debug chat (the given keywords, or all): the defaults apply again',
    body: Bot.extend({ keywords: z.array(z.string().max(64)).max(100).optional() }),
    response: NoAnswer,
    handler: async ({ body, caller }) => {
      await draft(body.space_id, body.bot_id);
      let q = ctx.db
        .deleteFrom('bot_variables_value')
        .where('bot_id', '=', body.bot_id)
        .where('connector_id', '=', DEBUG_CONNECTOR)
        .where('end_user_id', '=', caller!.userId);
      if (body.keywords?.length) q = q.where('name', 'in', body.keywords);
      await q.execute();
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/memory/variable/get_meta',
    auth: inSpace,
    summary: "The draft's variables by channel (Coze's VariableMap; 1: a bot's own, 5: a project's)",
    body: z.object({
      space_id: z.string().min(1),
      ConnectorID: z.string().min(1).max(32),
      ConnectorType: z.number().int().default(1),
    }),
    response: VariableMetaMap,
    handler: async ({ body }): Promise<z.output<typeof VariableMetaMap>> => {
      if (body.ConnectorType === 2) {
        // A project (Coze's VariableConnector.Project): its app variables, channel 5.
        const projects = ctx.optionalService(ProjectsService);
        const project = await projects?.get(body.ConnectorID);
        if (!projects || !project || project.space_id !== body.space_id)
          throw notFound(`There is no project ${body.ConnectorID} in this space.`);
        const list = (await projects.variables(project.id, 'draft')) ?? [];
        return {
          VariableMap: {
            [APP]: list.map((v) => ({
              Keyword: v.Keyword,
              DefaultValue: v.DefaultValue,
              VariableType: KV,
              Channel: APP,
              Description: v.Description,
              Enable: v.Enable,
              Schema: v.Schema,
              IsReadOnly: v.IsReadOnly,
            })),
          },
        };
      }
      if (body.ConnectorType !== 1)
        throw badRequest('ConnectorType is 1 (a bot) or 2 (a project).', { field: 'ConnectorType' });
      const variables = await draft(body.space_id, body.ConnectorID);
      return {
        VariableMap: {
          [CUSTOM]: variables.map((v) => ({
            Keyword: v.name,
            DefaultValue: v.default_value,
            VariableType: KV,
            Channel: CUSTOM,
            Description: v.description,
            Enable: true,
            Schema: '{"type":"string"}',
            IsReadOnly: !v.writable,
          })),
        },
      };
    },
  });
}
