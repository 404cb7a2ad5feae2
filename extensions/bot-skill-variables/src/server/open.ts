// Coze's variables open API: GET /v1/variables (variables.retrieve) and PUT /v1/variables (variables.update)
// as the @coze/api SDK calls them, on a published bot's variables (bot_id) or a published project's (app_id,
// when the projects extension is on).
import { ApiError, ErrorCode, OpenApiCode, badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotsService } from '@tessera/ext-bots/shared';
import { ProjectsService } from '@tessera/ext-projects/shared';
import { z } from 'zod';
import { OpenValues, VariablesSkillSettings } from '../shared.ts';
import { MAX_VALUE, variableStore } from './store.ts';

const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000) || 0;

/** A variable as both owners answer it: a bot's (its variables skill) or a project's (app variables). */
interface Owned {
  name: string;
  default_value: string;
  user_editable: boolean;
}

export function registerOpenApi(ctx: ServerContext<unknown>) {
  const store = variableStore(ctx);
  const bots = () => ctx.service(BotsService);
  /** Projects, when their extension is on. */
  const projects = () => ctx.optionalService(ProjectsService);
  /** The space of the bot or project (app_id) a call names; no id or an unknown one answer here, before auth. */
  const ownerSpace = async (botId: unknown, appId: unknown): Promise<string> => {
    if (typeof botId === 'string' && botId) {
      const bot = await bots().get(botId);
      if (!bot)
        throw new ApiError(404, ErrorCode.NOT_FOUND, `There is no bot ${botId} (it may have been deleted).`, '', {
          openCode: OpenApiCode.NOT_FOUND,
        });
      return bot.space_id;
    }
    if (typeof appId !== 'string' || !appId)
      throw badRequest('Give bot_id (a bot) or app_id (a project).', { field: 'bot_id' });
    const service = projects();
    if (!service)
      throw badRequest('app_id names a project, and projects are turned off in this studio. Give bot_id.', {
        field: 'app_id',
      });
    const project = await service.get(appId);
    if (!project)
      throw new ApiError(404, ErrorCode.NOT_FOUND, `There is no project ${appId} (it may have been deleted).`, '', {
        openCode: OpenApiCode.NOT_FOUND,
      });
    return project.space_id;
  };
  /** The published variables of the bot, or of the project (app_id); the owner id their values are kept under. */
  const published = async (
    botId: string | undefined,
    appId: string | undefined,
  ): Promise<{ owner: string; what: string; variables: Owned[] }> => {
    if (botId) {
      const settings = await bots().skillSettings(botId, 'variables', 'published');
      const parsed = VariablesSkillSettings.safeParse(settings ?? {});
      return { owner: botId, what: 'The bot', variables: parsed.success ? parsed.data.variables : [] };
    }
    const list = await projects()!.variables(appId!, 'published');
    if (!list)
      throw badRequest('The project has not been published yet: publish it, then its variables answer here.', {
        field: 'app_id',
      });
    return {
      owner: appId!,
      what: 'The project',
      variables: list
        .filter((v) => v.Enable)
        .map((v) => ({ name: v.Keyword, default_value: v.DefaultValue, user_editable: !v.IsReadOnly })),
    };
  };

  ctx.route({
    method: 'GET',
    path: '/v1/variables',
    auth: { space: (r: { query: any }) => ownerSpace(r.query?.bot_id, r.query?.app_id) },
    permission: 'bot.chat',
    summary: "A user's values of the published bot's (or project's, app_id) variables (defaults where none is set)",
    query: z.object({
      bot_id: z.string().max(32).optional(),
      app_id: z.string().max(32).optional(),
      connector_id: z.string().max(32).default('1024'),
      connector_uid: z.string().max(200).optional(),
      keywords: z.string().max(4000).optional(),
    }),
    response: OpenValues,
    handler: async ({ query, caller }) => {
      const { owner, variables } = await published(query.bot_id, query.app_id);
      const wanted = query.keywords
        ? new Set(
            query.keywords
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean),
          )
        : undefined;
      const stored = await store.rows({
        botId: owner,
        connectorId: query.connector_id,
        endUserId: query.connector_uid || caller!.userId,
      });
      return {
        items: variables
          .filter((v) => !wanted || wanted.has(v.name))
          .map((v) => {
            const s = stored[v.name];
            return {
              keyword: v.name,
              value: s?.value ?? v.default_value,
              create_time: s ? secs(s.created_at) : 0,
              update_time: s ? secs(s.updated_at) : 0,
            };
          }),
      };
    },
  });

  ctx.route({
    method: 'PUT',
    path: '/v1/variables',
    auth: { space: (r: { body: any }) => ownerSpace(r.body?.bot_id, r.body?.app_id) },
    permission: 'bot.chat',
    summary: "Set a user's values of the published bot's (or project's, app_id) variables",
    body: z.object({
      bot_id: z.string().max(32).optional(),
      app_id: z.string().max(32).optional(),
      connector_id: z.string().max(32).default('1024'),
      connector_uid: z.string().max(200).optional(),
      data: z
        .array(
          z.object({
            keyword: z.string().min(1).max(64),
            value: z.string().max(MAX_VALUE, `A value is at most ${MAX_VALUE} characters.`),
          }),
        )
        .min(1, 'data needs at least one variable.')
        .max(100),
    }),
    response: z.null(),
    handler: async ({ body, caller }) => {
      const { owner, what, variables } = await published(body.bot_id, body.app_id);
      for (const item of body.data) {
        const v = variables.find((x) => x.name === item.keyword);
        if (!v)
          throw badRequest(
            `${what} has no variable ${item.keyword}${variables.length ? ` (it has ${variables.map((x) => x.name).join(', ')})` : ' published'}.`,
            { field: 'data' },
          );
        if (!v.user_editable)
          throw badRequest(
            `The variable ${item.keyword} is not set by end users (only the ${what === 'The bot' ? 'bot' : 'project'} and the studio set it).`,
            { field: 'data' },
          );
      }
      const who = { botId: owner, connectorId: body.connector_id, endUserId: body.connector_uid || caller!.userId };
      for (const item of body.data) await store.set(who, item.keyword, item.value);
      return null;
    },
  });
}
