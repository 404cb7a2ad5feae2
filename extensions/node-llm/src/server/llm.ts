import {
  FieldDeclSchema,
  zodOf,
  type FieldDecl,
  type NodeRunContext,
  type NodeTypeDefinition,
} from '@tessera/ext-workflow/shared';
import type { Models } from '@tessera/ext-models/shared';
import type { ModelMessage, ToolSet } from 'ai';
import { z } from 'zod';
import type { Prompts } from '@tessera/ext-prompts/shared';
import { fieldOf } from '@tessera/sdk';

const Skill = z.object({
  workflow_id: z.string().min(1),
  version: z.string().optional(),
  /** The tool's name and description the model sees. */
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/),
  description: z.string().max(2000).default(''),
  /** The workflow's Start fields (the editor fills them in). */
  parameters: z.array(FieldDeclSchema).default([]),
});

export const LlmSettings = z
  .object({
    model_id: z.string().min(1, 'Choose a model.'),
    /** The model's name when it was chosen (shown on the card; the id is what runs). */
    model_name: z.string().max(200).optional(),
    backup_model_id: z.string().optional(),
    params: z
      .object({
        temperature: z.number().min(0).max(2).optional(),
        top_p: z.number().min(0).max(1).optional(),
        max_tokens: z.number().int().min(1).optional(),
      })
      .default({}),
    system_prompt: z.string().max(100_000).default(''),
    user_prompt: z.string().max(100_000).default(''),
    /** A prompt of the library (by key, and a label or version; else its latest version) in place of the two above; the node's inputs are its variables. */
    prompt_ref: z
      .object({
        prompt_key: z.string().min(1, 'Give the key of the library prompt.').max(100),
        label: z.string().max(64).optional(),
        version: z.string().max(32).optional(),
      })
      .optional(),
    /** ChatFlow: how many earlier rounds of the input `chat_history` to include. */
    history_rounds: z.number().int().min(0).max(100).default(0),
    output_format: z.enum(['text', 'markdown', 'json']).default('text'),
    /** For json: the typed fields of the answer. */
    json_fields: z.array(FieldDeclSchema).default([]),
    streaming: z.boolean().default(true),
    skills: z.array(Skill).max(20).default([]),
    max_tool_rounds: z.number().int().min(1).max(20).default(5),
  })
  .superRefine((s, c) => {
    if (!s.prompt_ref && !s.user_prompt.trim())
      c.addIssue({ code: 'custom', path: ['user_prompt'], message: 'Write the user prompt.' });
  });
type Settings = z.infer<typeof LlmSettings>;

interface ToolCallRecord {
  name: string;
  input: unknown;
  output?: unknown;
  error?: string;
}

function history(input: unknown, rounds: number): ModelMessage[] {
  if (!rounds || !Array.isArray(input)) return [];
  const msgs = input.filter(
    (m): m is { role: 'user' | 'assistant'; content: string } =>
      !!m && (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string',
  );
  // A round is a user message and the answer to it.
  return msgs.slice(-rounds * 2).map((m) => ({ role: m.role, content: m.content }));
}

async function runOnce(
  ctx: NodeRunContext,
  models: Models,
  modelId: string,
  s: Settings,
  promptsService: () => Prompts | undefined,
) {
  // The AI SDK loads with the first model call, not when the studio starts.
  const { Output, streamText, tool } = await import('ai');
  const model = await models.get(ctx.spaceId, modelId);
  const languageModel = await model.chat();
  const toolCalls: ToolCallRecord[] = [];
  const tools: ToolSet = {};
  for (const skill of s.skills) {
    tools[skill.name] = tool({
      description: skill.description || `Runs the workflow ${skill.name}.`,
      inputSchema: zodOf(skill.parameters),
      execute: async (input: Record<string, unknown>) => {
        const record: ToolCallRecord = { name: skill.name, input };
        toolCalls.push(record);
        const r = await ctx.runWorkflow({ workflow_id: skill.workflow_id, version: skill.version, input });
        if (r.status !== 'success') {
          record.error = 'The workflow asked a question, which a tool cannot answer.';
          throw new Error(record.error);
        }
        record.output = r.output;
        return r.output;
      },
    });
  }
  let messages: ModelMessage[];
  let system: string | undefined;
  if (s.prompt_ref) {
    // The library prompt's messages, filled with the node's inputs.
    const prompts = promptsService();
    if (!prompts) throw new Error('This node uses a library prompt, and prompts are off in this studio.');
    const ref = s.prompt_ref;
    const found = await prompts.resolve(ctx.spaceId, ref.prompt_key, ref);
    if (!found)
      throw new Error(
        `There is no ${ref.label ? `version labelled ${ref.label} of` : ref.version ? `version ${ref.version} of` : 'committed version of'} the library prompt ${ref.prompt_key}.`,
      );
    const r = await prompts.render(found.detail, ctx.inputs);
    system =
      r.messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n\n') || undefined;
    const rest = r.messages.filter((m) => m.role !== 'system');
    messages = [
      ...history(ctx.inputs.chat_history, s.history_rounds),
      ...(rest.length ? rest : [{ role: 'user' as const, content: '' }]),
    ];
  } else {
    messages = [
      ...history(ctx.inputs.chat_history, s.history_rounds),
      { role: 'user', content: ctx.render(s.user_prompt) },
    ];
    system = ctx.render(s.system_prompt) || undefined;
  }
  const params = { ...model.default_params, ...s.params };
  // The model call as a span by the OpenTelemetry GenAI conventions (completed when the answer is in).
  const attrs: Record<string, unknown> = {
    kind: 'llm',
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model.model_name,
    'gen_ai.system': model.provider ?? '',
    'gen_ai.prompt': JSON.stringify(system ? [{ role: 'system', content: system }, ...messages] : messages).slice(
      0,
      16_000,
    ),
  };
  return ctx.span(`chat ${model.model_name}`, attrs, () =>
    callModel(
      ctx,
      models,
      model,
      languageModel,
      system,
      messages,
      params,
      tools,
      toolCalls,
      s,
      attrs,
      streamText,
      Output,
    ),
  );
}

async function callModel(
  ctx: NodeRunContext,
  models: Models,
  model: Awaited<ReturnType<Models['get']>>,
  languageModel: Parameters<(typeof import('ai'))['streamText']>[0]['model'],
  system: string | undefined,
  messages: ModelMessage[],
  params: Record<string, any>,
  tools: ToolSet,
  toolCalls: ToolCallRecord[],
  s: Settings,
  attrs: Record<string, unknown>,
  streamText: (typeof import('ai'))['streamText'],
  Output: (typeof import('ai'))['Output'],
) {
  const { isStepCount } = await import('ai');
  let error: unknown;
  const result = streamText({
    model: languageModel,
    system,
    messages,
    temperature: params.temperature,
    topP: params.top_p,
    maxOutputTokens: params.max_tokens,
    abortSignal: ctx.signal,
    maxRetries: 0,
    ...(Object.keys(tools).length ? { tools, stopWhen: isStepCount(s.max_tool_rounds) } : {}),
    ...(s.output_format === 'json' ? { output: Output.object({ schema: zodOf(s.json_fields) }) } : {}),
    onError: ({ error: e }) => {
      error ??= e;
    },
  });
  let text = '';
  let reasoning = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      text += part.text;
      if (s.streaming && s.output_format !== 'json') ctx.stream(part.text);
    } else if (part.type === 'reasoning-delta') reasoning += part.text;
    else if (part.type === 'error') error ??= part.error;
  }
  if (ctx.signal.aborted) throw new Error('cancelled');
  if (error) throw error;
  const usage = await result.totalUsage;
  const tokens = { input_tokens: usage.inputTokens ?? 0, output_tokens: usage.outputTokens ?? 0 };
  Object.assign(attrs, {
    'gen_ai.usage.input_tokens': tokens.input_tokens,
    'gen_ai.usage.output_tokens': tokens.output_tokens,
    'gen_ai.completion': text.slice(0, 16_000),
  });
  await models.recordUsage({
    space_id: ctx.spaceId,
    model_id: model.model_id,
    ...tokens,
    source: 'workflow',
    run_id: ctx.runId,
  });
  let outputs: Record<string, unknown>;
  if (s.output_format === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`The model's answer is not JSON: ${text.slice(0, 200)}`);
    }
    const checked = zodOf(s.json_fields).safeParse(parsed);
    if (!checked.success)
      throw new Error(
        `The model's answer does not match the declared fields: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    outputs = { ...checked.data };
    if (s.streaming) ctx.stream(text, true);
  } else outputs = { output: text };
  if (reasoning) outputs.reasoning_content = reasoning;
  if (toolCalls.length) outputs.tool_calls = toolCalls;
  return { outputs, usage: tokens };
}

const describeError = (e: unknown) => {
  const status = fieldOf(e, 'statusCode');
  return `${status ? `HTTP ${String(status)}: ` : ''}${String(fieldOf(e, 'message') ?? e)}`;
};

export function llmNode(
  models: () => Models,
  prompts: () => Prompts | undefined = () => undefined,
): NodeTypeDefinition {
  return {
    key: 'llm',
    code: 3,
    category: 'ai',
    label: { 'en-US': 'LLM', 'zh-CN': '大模型' },
    description: {
      'en-US': 'Calls a model with prompt templates; text, markdown or typed JSON; workflows as tools.',
      'zh-CN': '用提示词模板调用大模型；文本、Markdown 或类型化 JSON；可把工作流作为工具。',
    },
    settings: LlmSettings,
    outputsOf: (node): FieldDecl[] => {
      const s = node.node_param.settings as Partial<Settings>;
      const base: FieldDecl[] =
        s?.output_format === 'json' ? (s.json_fields ?? []) : [{ name: 'output', type: 'string' }];
      return [...base, { name: 'reasoning_content', type: 'string' }];
    },
    async execute(ctx) {
      const s = ctx.settings as Settings;
      try {
        return await runOnce(ctx, models(), s.model_id, s, prompts);
      } catch (e) {
        if (ctx.signal.aborted || !s.backup_model_id) throw new Error(`The model call failed: ${describeError(e)}`);
        ctx.log(`primary model failed (${describeError(e)}); trying the backup model`);
        try {
          return await runOnce(ctx, models(), s.backup_model_id, s, prompts);
        } catch (e2) {
          throw new Error(`The model call failed, and so did the backup model: ${describeError(e2)}`);
        }
      }
    },
  };
}
