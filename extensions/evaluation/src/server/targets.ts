// The targets this extension brings: a prompt of the library (a version or a label; its variables take the
// item's fields; the answer of its model is the output, traced as a model call), a published workflow (its
// Start fields take the item's; its output; the run is its trace), a bot, and a chat model alone (model-target.ts).
import { badRequest, fieldOf, genAiEvents, SpansRecorded } from '@tessera/sdk';
import { ResourceKinds, type ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { PromptsService } from '@tessera/ext-prompts/shared';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import { BotChatsService, BotsService } from '@tessera/ext-bots/shared';
import { z } from 'zod';
import { EvalTargets, type TargetChoice } from '../shared/index.ts';

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
        ? raw.filter((m) => fieldOf(m, 'role') === 'user').map((m) => text(fieldOf(m, 'content')).trim())
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

// A target's model call as a trace (one model-call span with the GenAI conventions' attributes and events), so an
// experiment's result opens where it ran.
interface ModelCall {
  spaceId: string;
  /** The span's name (`prompt support.reply@1.0.0`, `model fake-chat`). */
  name: string;
  modelName: string;
  messages: unknown;
  output: string;
  usage: { input_tokens: number; output_tokens: number };
  started: number;
  ended: number;
  /** More attributes (the prompt's key and version ...). */
  extra?: Record<string, unknown>;
}

/** Emits the call as a trace; answers its id. */
function traceModelCall(ctx: ServerContext<unknown>, c: ModelCall): string {
  const traceId = ctx.host.newId();
  const attributes: Record<string, unknown> = {
    'gen_ai.request.model': c.modelName,
    'gen_ai.usage.input_tokens': c.usage.input_tokens,
    'gen_ai.usage.output_tokens': c.usage.output_tokens,
    'gen_ai.prompt': JSON.stringify(c.messages).slice(0, 16_000),
    'gen_ai.completion': c.output.slice(0, 16_000),
    ...c.extra,
  };
  ctx.emit(SpansRecorded, {
    space_id: c.spaceId,
    source: 'evaluation',
    spans: [
      {
        trace_id: traceId,
        span_id: ctx.host.newId(),
        name: c.name,
        kind: 'llm',
        start_ms: c.started,
        end_ms: c.ended,
        status: 'ok',
        attributes,
        events: genAiEvents(attributes, c.started, c.ended),
      },
    ],
  });
  return traceId;
}

// A chat model alone as an experiment's target (offline evaluation of a model): each item's `input` (mapped from a
// column of the set) is asked of the model, after an optional system prompt, at the temperature given; its answer is
// the output, the call a trace. Two experiments of the same set on two models compare them.
const ModelTarget = z.object({
  model_id: z.string().min(1, 'Choose the model.').max(32),
  system: z.string().max(20_000).optional(),
  temperature: z.coerce.number().min(0).max(2).optional(),
});

const settingsOf = (v: unknown) => {
  const r = ModelTarget.safeParse(v);
  if (!r.success) throw badRequest(r.error.issues[0]?.message ?? 'The target is not valid.', { field: 'target' });
  return r.data;
};

function registerModelTarget(ctx: ServerContext<unknown>) {
  const models = () => ctx.service(ModelsService);
  const chatModel = async (spaceId: string, modelId: string) => {
    const model = await models().get(spaceId, modelId);
    if (model.kind !== 'chat')
      throw badRequest(`${model.display_name || model.model_name} is not a chat model: choose one that answers.`, {
        field: 'target',
      });
    return model;
  };
  ctx.register(EvalTargets, {
    kind: 'model',
    label: { 'en-US': 'Model', 'zh-CN': '模型' },
    inputs: async () => ['input'],
    async check(spaceId, settings) {
      await chatModel(spaceId, settingsOf(settings).model_id);
    },
    choices: async (spaceId) => [
      {
        field: 'model_id',
        label: { 'en-US': 'Model', 'zh-CN': '模型' },
        required: true,
        options: (await models().list(spaceId, 'chat'))
          .filter((m) => m.enabled)
          .map((m) => ({ value: m.model_id, label: m.display_name || m.model_name })),
      },
    ],
    async run({ spaceId, settings, inputs, signal }) {
      const s = settingsOf(settings);
      const model = await chatModel(spaceId, s.model_id);
      const messages = [{ role: 'user' as const, content: text(inputs.input) }];
      const started = Date.now();
      const out = await models().complete({
        spaceId,
        modelId: s.model_id,
        system: s.system || undefined,
        messages,
        temperature: s.temperature,
        signal,
        source: 'evaluation',
      });
      const usage = { input_tokens: out.input_tokens, output_tokens: out.output_tokens };
      const traceId = traceModelCall(ctx, {
        spaceId,
        name: `model ${model.model_name}`,
        modelName: model.model_name,
        messages: s.system ? [{ role: 'system', content: s.system }, ...messages] : messages,
        output: out.text,
        usage,
        started,
        ended: Date.now(),
      });
      return { output: out.text, trace_id: traceId, ...usage };
    },
  });
}
