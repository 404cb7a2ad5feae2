import { ApiError, ErrorCode, OpenApiCode, badRequest } from '@tessera/sdk';
import { ErrorTexts, defineExtension } from '@tessera/sdk/server';
import { BotChatsService, BotModeCode, BotModes, Connectors, defineBotMode } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import { WorkflowMode, WorkflowRunnerService } from '@tessera/workflow-sdk';
import { ChatflowSettings } from '../shared.ts';

const TEXTS = [
  ['noFlow', 'The bot has no chat-flow: choose one in its settings.', '智能体没有对话流：请在设置中选择一个。'],
  [
    'notChatflow',
    '"{{name}}" is a workflow, not a chat-flow: choose a chat-flow.',
    '“{{name}}”是工作流，不是对话流：请选择一个对话流。',
  ],
  ['unpublished', 'The chat-flow "{{name}}" is not published.', '对话流“{{name}}”尚未发布。'],
  ['failed', 'The chat-flow "{{name}}" failed: {{detail}}', '对话流“{{name}}”运行失败：{{detail}}'],
] as const;

/** An error of a turn with its text in both languages (the chat keeps it in the caller's). */
const failure = (key: string, msg: string, params: Record<string, string> = {}) =>
  Object.assign(new Error(msg), { text: { key: `bot-mode-chatflow.${key}`, params } });

/** The answer of a run whose End returned variables: one text field as it is, else the JSON. */
function answerOf(output: Record<string, unknown> | undefined): string {
  if (!output) return '';
  const values = Object.values(output);
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  return JSON.stringify(output);
}

export default defineExtension({
  id: 'bot-mode-chatflow',
  register(ctx) {
    for (const [key, en, zh] of TEXTS)
      ctx.register(ErrorTexts, { key: `bot-mode-chatflow.${key}`, texts: { 'en-US': en, 'zh-CN': zh } });
    const runner = () => ctx.service(WorkflowRunnerService);
    ctx.register(
      BotModes,
      defineBotMode({
        key: 'chatflow',
        code: BotModeCode.Workflow,
        label: { 'en-US': 'Chat-flow', 'zh-CN': '对话流' },
        settings: ChatflowSettings,
        problems: (s) => (s.workflow_id ? [] : ['Choose the chat-flow that answers.']),
        describe: (s) => ({
          workflow_info_list: s.workflow_id
            ? [
                {
                  id: s.workflow_id,
                  name: s.workflow_name ?? '',
                  description: '',
                  icon_url: '',
                },
              ]
            : [],
        }),
        async run(turn, s) {
          if (!s.workflow_id) throw failure('noFlow', 'The bot has no chat-flow: choose one in its settings.');
          const info = await runner().info(s.workflow_id, turn.spaceId);
          if (info.flow_mode !== WorkflowMode.ChatFlow)
            throw failure('notChatflow', `"${info.name}" is a workflow, not a chat-flow: choose a chat-flow.`, {
              name: info.name,
            });
          // A published bot answers with the chat-flow's published version; the draft with its latest (or its draft).
          if (turn.version !== null && !info.latest_version)
            throw failure('unpublished', `The chat-flow "${info.name}" is not published.`, { name: info.name });
          let streamed = '';
          const r = await runner().run({
            spaceId: turn.spaceId,
            userId: turn.userId,
            workflowId: info.workflow_id,
            version: info.latest_version ? undefined : 'draft',
            input: { USER_INPUT: turn.query, CONVERSATION_NAME: turn.conversationId, ...turn.customVariables },
            signal: turn.signal,
            botId: turn.botId,
            connectorId: turn.connectorId,
            connectorUid: turn.endUserId,
            onMessage: (m) => {
              streamed += m.content;
              turn.emit.delta(m.content);
            },
          });
          if (r.status === 'cancel') throw new Error('cancelled');
          if (r.status === 'interrupted')
            throw new Error(
              `The chat-flow "${info.name}" asks a question; questions in chat-flows are not answered in chats yet.`,
            );
          if (r.status !== 'success')
            throw failure('failed', `The chat-flow "${info.name}" failed: ${r.error ?? 'unknown error'}`, {
              name: info.name,
              detail: r.error ?? '',
            });
          return { answer: streamed || answerOf(r.output), usage: r.usage };
        },
      }),
    );

    // Coze's chat-flow API: a published chat-flow answers, with a conversation of its own.
    const missing = (msg: string) =>
      new ApiError(404, ErrorCode.NOT_FOUND, msg, '', { openCode: OpenApiCode.NOT_FOUND });
    const Message = z.object({
      role: z.enum(['user', 'assistant']),
      type: z.enum(['question', 'answer']).optional(),
      content: z.string().max(100_000),
      content_type: z.enum(['text', 'object_string']).default('text'),
      meta_data: z.record(z.string().max(64), z.string().max(512)).optional(),
    });
    ctx.route({
      method: 'POST',
      path: '/v1/workflows/chat',
      auth: {
        space: async (r: { body: any }) => {
          const id = r.body?.workflow_id;
          if (typeof id !== 'string' || !id) throw badRequest('workflow_id is required.');
          return (
            (await runner().spaceOf(id)) ??
            (() => {
              throw missing(`No workflow ${id} (it may have been deleted).`);
            })()
          );
        },
      },
      permission: 'workflow.run',
      stream: true,
      summary: "Chat with a published chat-flow: Coze's chat events (the conversation keeps the history)",
      body: z.object({
        workflow_id: z.string().min(1),
        additional_messages: z.array(Message).min(1).max(100),
        parameters: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
        conversation_id: z.string().optional(),
        bot_id: z.string().optional(),
        app_id: z.string().optional(),
        ext: z.record(z.string(), z.unknown()).optional(),
      }),
      handler: async ({ body, caller, spaceId, logId, signal }, reply) => {
        const info = await runner().info(body.workflow_id, spaceId!);
        if (info.flow_mode !== WorkflowMode.ChatFlow)
          throw badRequest(`"${info.name}" is a workflow, not a chat-flow: run it with /v1/workflow/stream_run.`);
        if (!info.latest_version) throw missing(`The chat-flow "${info.name}" is not published: publish it first.`);
        let parameters: Record<string, unknown> = {};
        if (typeof body.parameters === 'string') {
          try {
            parameters = JSON.parse(body.parameters);
          } catch {
            throw badRequest('parameters must be a JSON object.');
          }
        } else if (body.parameters) parameters = body.parameters;
        const endUser = body.ext?.user_id;
        const { chat_id } = await ctx.service(BotChatsService).start({
          spaceId: spaceId!,
          userId: caller!.userId,
          ownerId: info.workflow_id,
          mode: 'chatflow',
          settings: { workflow_id: info.workflow_id, workflow_name: info.name },
          conversationId: body.conversation_id,
          endUserId: typeof endUser === 'string' || typeof endUser === 'number' ? String(endUser) : caller!.userId,
          connectorId: Connectors.API,
          messages: body.additional_messages.map((m) => ({
            role: m.role,
            type: m.type,
            content: m.content,
            meta_data: m.meta_data,
          })),
          customVariables: parameters as Record<string, string>,
          logId,
        });
        await ctx.service(BotChatsService).stream(chat_id, reply.sse(), signal);
        return null;
      },
    });
  },
});
