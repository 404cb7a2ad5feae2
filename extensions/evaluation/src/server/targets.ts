// The targets this extension brings: a prompt of the library (a version or a label; its variables take the
// item's fields; the answer of its model is the output, traced as a model call), a published workflow (its
// Start fields take the item's; its output; the run is its trace), a bot, and a chat model alone (model-target.ts).
import { badRequest } from '@tessera/sdk';
import { ResourceKinds, type ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { PromptsService } from '@tessera/ext-prompts/shared';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import { BotChatsService, BotsService } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import { EvalTargets, type TargetChoice } from '../shared/index.ts';
import { registerModelTarget } from './model-target.ts';
import { traceModelCall } from './trace.ts';

const PromptTarget = z.object({
  prompt_key: z.string().min(1, 'Choose the prompt.').max(100),
  version: z.string().max(32).optional(),
  label: z.string().max(64).optional(),
});
const BotTarget = z.object({ bot_id: z.string().min(1, 'Choose the bot.').max(32) });
const WorkflowTarget = z.object({
  workflow_id: z.string().min(1, 'Choose the workflow.').max(32),
  version: z.string().max(32).optional(),
});
const parse = <T>(schema: z.ZodType<T>, v: unknown): T => {
  const r = schema.safeParse(v);
  if (!r.success) throw badRequest(r.error.issues[0]?.message ?? 'The target is not valid.', { field: 'target' });
  return r.data;
};
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));
const NO_MODEL = {
  'en-US': 'no model: set one in the prompt and commit',
  'zh-CN': '没有模型：在提示词中设置模型并提交',
};

export function registerTargets(ctx: ServerContext<unknown>) {
  registerModelTarget(ctx);
  const prompts = () => {
    const p = ctx.optionalService(PromptsService);
    if (!p) throw badRequest('Prompts are off in this studio.', { field: 'target' });
    return p;
  };
  const resolve = async (spaceId: string, settings: unknown) => {
    const s = parse(PromptTarget, settings);
    const r = await prompts().resolve(spaceId, s.prompt_key, s);
    if (!r)
      throw badRequest(
        `There is no ${s.label ? `version labelled ${s.label}` : s.version ? `version ${s.version}` : 'version'} of the prompt ${s.prompt_key}.`,
        { field: 'target' },
      );
    return r;
  };
  ctx.register(EvalTargets, {
    kind: 'prompt',
    label: { 'en-US': 'Prompt', 'zh-CN': '提示词' },
    async inputs(spaceId, settings) {
      const r = await resolve(spaceId, settings);
      const names = new Set(r.detail.prompt_template.variable_defs.map((v) => v.key));
      for (const m of r.detail.prompt_template.messages)
        for (const x of m.content.matchAll(/\{\{\s*([A-Za-z_]\w*)/g)) names.add(x[1]);
      return [...names];
    },
    async check(spaceId, settings) {
      const r = await resolve(spaceId, settings);
      if (!r.detail.model_config.model_id)
        throw badRequest(`Version ${r.version} of ${r.prompt_key} has no model: set one and commit.`, {
          field: 'target',
        });
    },
    async choices(spaceId, settings): Promise<TargetChoice[]> {
      const list = ctx.optionalService(PromptsService) ? await prompts().list(spaceId) : [];
      const picked =
        typeof settings.prompt_key === 'string' && list.some((p) => p.prompt_key === settings.prompt_key)
          ? await prompts().versions(spaceId, settings.prompt_key)
          : undefined;
      const modelOf = new Map(picked?.versions.map((v) => [v.version, v.has_model]));
      return [
        {
          field: 'prompt_key',
          label: { 'en-US': 'Prompt', 'zh-CN': '提示词' },
          required: true,
          options: list.map((p) => ({
            value: p.prompt_key,
            label: p.name === p.prompt_key ? p.name : `${p.name} (${p.prompt_key})`,
          })),
        },
        {
          field: 'version',
          label: { 'en-US': 'Version (latest when empty)', 'zh-CN': '版本（留空为最新）' },
          required: false,
          options: (picked?.versions ?? []).map((v) => ({
            value: v.version,
            label: v.version,
            ...(v.has_model ? {} : { problem: NO_MODEL }),
          })),
        },
        {
          field: 'label',
          label: { 'en-US': 'Or a label', 'zh-CN': '或标签' },
          required: false,
          options: (picked?.labels ?? []).map((l) => ({
            value: l.label,
            label: `${l.label} → ${l.version}`,
            ...(modelOf.get(l.version) === false ? { problem: NO_MODEL } : {}),
          })),
        },
      ];
    },
    async run({ spaceId, settings, inputs, signal }) {
      const r = await resolve(spaceId, settings);
      const { messages } = await prompts().render(r.detail, inputs);
      const model = await ctx.service(ModelsService).get(spaceId, r.detail.model_config.model_id!);
      const { generateText } = await import('ai');
      const started = Date.now();
      const system =
        messages
          .filter((m) => m.role === 'system')
          .map((m) => m.content)
          .join('\n\n') || undefined;
      const rest = messages.filter((m) => m.role !== 'system');
      const out = await generateText({
        model: await model.chat(),
        system,
        messages: rest.length ? rest : [{ role: 'user', content: '' }],
        temperature: r.detail.model_config.temperature,
        topP: r.detail.model_config.top_p,
        maxOutputTokens: r.detail.model_config.max_tokens,
        abortSignal: signal,
        maxRetries: 1,
      });
      const usage = { input_tokens: out.usage?.inputTokens ?? 0, output_tokens: out.usage?.outputTokens ?? 0 };
      await ctx
        .service(ModelsService)
        .recordUsage({ space_id: spaceId, model_id: model.model_id, ...usage, source: 'evaluation' })
        .catch(() => undefined);
      // The call as a trace (a model call span), so a result opens where it ran.
      const traceId = traceModelCall(ctx, {
        spaceId,
        name: `prompt ${r.prompt_key}@${r.version}`,
        modelName: model.model_name,
        messages,
        output: out.text,
        usage,
        started,
        ended: Date.now(),
        extra: { 'tessera.prompt_key': r.prompt_key, 'tessera.prompt_version': r.version },
      });
      return { output: out.text, trace_id: traceId, ...usage };
    },
  });

  /** The space's resources of a kind (through the library's point), newest first; published ones only when asked. */
  const resources = async (kind: string, spaceId: string, publishedOnly: boolean) => {
    const items = (await ctx.registry(ResourceKinds).get(kind)?.list({ spaceId, limit: 200 })) ?? [];
    return items.filter((i) => !publishedOnly || i.published !== false).map((i) => ({ value: i.id, label: i.name }));
  };

  const runner = () => {
    const r = ctx.optionalService(WorkflowRunnerService);
    if (!r) throw badRequest('Workflows are off in this studio.', { field: 'target' });
    return r;
  };
  ctx.register(EvalTargets, {
    kind: 'workflow',
    label: { 'en-US': 'Published workflow', 'zh-CN': '已发布的工作流' },
    async inputs(spaceId, settings) {
      const s = parse(WorkflowTarget, settings);
      return (await runner().info(s.workflow_id, spaceId)).inputs.map((f) => f.name);
    },
    async check(spaceId, settings) {
      const s = parse(WorkflowTarget, settings);
      const info = await runner().info(s.workflow_id, spaceId);
      if (!info.latest_version)
        throw badRequest(`"${info.name}" is not published: publish it, then run experiments on it.`, {
          field: 'target',
        });
    },
    choices: async (spaceId) => [
      {
        field: 'workflow_id',
        label: { 'en-US': 'Workflow', 'zh-CN': '工作流' },
        required: true,
        options: await resources('workflow', spaceId, true),
      },
    ],
    async run({ spaceId, userId, settings, inputs, signal }) {
      const s = parse(WorkflowTarget, settings);
      const r = await runner().run({
        spaceId,
        userId,
        workflowId: s.workflow_id,
        version: s.version,
        input: inputs,
        signal,
      });
      if (r.status !== 'success')
        throw new Error(
          r.status === 'interrupted'
            ? 'The workflow asked a question, which an experiment cannot answer.'
            : (r.error ?? `The run ended with ${r.status}.`),
        );
      const out = r.output ?? {};
      const keys = Object.keys(out);
      return { output: keys.length === 1 ? text(out[keys[0]]) : text(out), trace_id: r.execute_id, ...r.usage };
    },
  });

  // A published bot (on the API connector): the item's query is the user's message, its answer the output, the
  // turn its trace. Each item is a new conversation of its own.
  const bots = () => {
    const b = ctx.optionalService(BotChatsService);
    if (!b) throw badRequest('Bots are off in this studio.', { field: 'target' });
    return b;
  };
  ctx.register(EvalTargets, {
    kind: 'bot',
    label: { 'en-US': 'Published bot', 'zh-CN': '已发布的智能体' },
    inputs: async () => ['query'],
    async check(spaceId, settings) {
      const s = parse(BotTarget, settings);
      const p = await ctx.optionalService(BotsService)?.publication(s.bot_id);
      const bot = await ctx.optionalService(BotsService)?.get(s.bot_id);
      if (!bot || bot.space_id !== spaceId)
        throw badRequest(`There is no bot ${s.bot_id} in this space.`, { field: 'target' });
      if (!p || !p.connectors.includes('1024'))
        throw badRequest(`"${bot.name}" is not published to the API: publish it there, then run experiments on it.`, {
          field: 'target',
        });
    },
    choices: async (spaceId) => [
      {
        field: 'bot_id',
        label: { 'en-US': 'Bot', 'zh-CN': '智能体' },
        required: true,
        options: await resources('bot', spaceId, true),
      },
    ],
    async run({ userId, settings, inputs, signal }) {
      const s = parse(BotTarget, settings);
      // A conversation (a list of messages) is played turn by turn: each user message in the same conversation;
      // the last answer is the output. Text is one turn.
      const raw = inputs.query;
      const turns = Array.isArray(raw)
        ? raw
            .filter((m) => (m as { role?: string })?.role === 'user')
            .map((m) => text((m as { content?: unknown }).content).trim())
        : [text(raw ?? '').trim()];
      if (!turns.length || turns.some((q) => !q))
        throw new Error('The item has no query for the bot (a text, or a conversation with user messages).');
      const chats = bots();
      const endUserId = `evaluation:${ctx.host.newId()}`;
      let conversationId: string | undefined;
      let last = { answer: '', chatId: '', usage: { input_tokens: 0, output_tokens: 0 } };
      const total = { input_tokens: 0, output_tokens: 0 };
      for (const message of turns) {
        const started = await chats.startPublished({
          botId: s.bot_id,
          userId,
          endUserId,
          message,
          conversationId,
          logId: ctx.host.newId(),
        });
        conversationId = started.conversation_id;
        let answer = '';
        let failure = '';
        let usage = { input_tokens: 0, output_tokens: 0 };
        let closed = false;
        await chats.stream(
          started.chat_id,
          {
            send(event, data) {
              const d = data as {
                type?: string;
                content?: string;
                last_error?: { msg?: string };
                usage?: { input_count?: number; output_count?: number };
              };
              if (event === 'conversation.message.delta' && d.type === 'answer') answer += d.content ?? '';
              if (event === 'conversation.chat.failed') failure = d.last_error?.msg ?? 'The bot could not answer.';
              if (event === 'conversation.chat.completed' && d.usage)
                usage = { input_tokens: d.usage.input_count ?? 0, output_tokens: d.usage.output_count ?? 0 };
            },
            close() {
              closed = true;
            },
            get closed() {
              return closed;
            },
          },
          signal,
        );
        if (failure) throw new Error(failure);
        total.input_tokens += usage.input_tokens;
        total.output_tokens += usage.output_tokens;
        last = { answer, chatId: started.chat_id, usage };
      }
      return { output: last.answer, trace_id: last.chatId, ...total };
    },
  });
}
