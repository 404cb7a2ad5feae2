import type { BotTool, BotTurnContext, TurnResult } from '@tessera/ext-bots/shared';
import type { Models } from '@tessera/ext-models/shared';
import type { ModelMessage, ToolSet } from 'ai';
import type { SingleAgentSettings } from '../shared.ts';
import type { Prompts } from '@tessera/ext-prompts/shared';
import { fieldOf } from '@tessera/sdk';

const errorText = (e: unknown) => {
  const status = fieldOf(e, 'statusCode');
  return `${status ? `HTTP ${String(status)}: ` : ''}${String(fieldOf(e, 'message') ?? e)}`;
};

/**
 * One turn of a single agent: the persona prompt (with the skills' values and instructions), the
 * current section's history and the question go to the model with the skills' tools; the model may
 * call tools for a bounded number of rounds. A tool that fails gives the model its error to act on.
 */
export async function runSingleAgent(
  turn: BotTurnContext,
  s: SingleAgentSettings,
  models: Models,
  prompts?: Prompts,
): Promise<TurnResult> {
  if (!s.model.model_id)
    throw Object.assign(new Error('The bot has no model: choose one in its settings.'), {
      text: { key: 'bot-single-agent.noModel' },
    });
  // The AI SDK loads with the first chat, not when the studio starts.
  const { isStepCount, jsonSchema, streamText, tool } = await import('ai');
  const model = await models.get(turn.spaceId, s.model.model_id);
  const contributions = await turn.skills();
  const values: Record<string, unknown> = {};
  for (const c of contributions) Object.assign(values, c.values ?? {});
  Object.assign(values, turn.customVariables);
  const instructions = contributions.map((c) => c.instructions?.trim()).filter(Boolean);
  let persona = turn.render(s.prompt, values).trim();
  if (s.prompt_ref) {
    if (!prompts)
      throw new Error("The bot's persona comes from the prompt library, and prompts are off in this studio.");
    const found = await prompts.resolve(turn.spaceId, s.prompt_ref.prompt_key, s.prompt_ref);
    if (!found)
      throw new Error(
        `There is no ${s.prompt_ref.label ? `version labelled ${s.prompt_ref.label} of` : s.prompt_ref.version ? `version ${s.prompt_ref.version} of` : 'committed version of'} the library prompt ${s.prompt_ref.prompt_key}.`,
      );
    persona = (await prompts.render(found.detail, values)).messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n')
      .trim();
  }
  const system = [persona, ...instructions].filter(Boolean).join('\n\n') || undefined;

  const tools: ToolSet = {};
  const byName = new Map<string, BotTool>();
  for (const t of contributions.flatMap((c) => c.tools ?? [])) byName.set(t.name, t);
  for (const t of byName.values()) {
    tools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(t.parameters as never),
      execute: async (args: Record<string, unknown>, { toolCallId }: { toolCallId: string }) => {
        turn.emit.toolCall({ id: toolCallId, name: t.name, arguments: args });
        try {
          const output = await t.execute(args ?? {}, { signal: turn.signal });
          turn.emit.toolResult({ id: toolCallId, name: t.name, output });
          return output ?? null;
        } catch (e) {
          if (turn.signal.aborted) throw e;
          const error = errorText(e);
          turn.emit.toolResult({ id: toolCallId, name: t.name, error });
          // The model reads the failure and can try otherwise or tell the user.
          return { error };
        }
      },
    } as never);
  }

  const rounds = s.model.context_rounds;
  const history = rounds ? turn.history.slice(-rounds * 2) : [];
  const messages: ModelMessage[] = [
    ...history.map((m) => ({ role: m.role, content: m.content })),
    { role: 'user', content: turn.query },
  ];
  const params = { ...model.default_params, ...s.model.params };
  let error: unknown;
  const result = streamText({
    model: await model.chat(),
    system,
    messages,
    temperature: params.temperature,
    topP: params.top_p,
    maxOutputTokens: params.max_tokens,
    abortSignal: turn.signal,
    maxRetries: 0,
    ...(byName.size ? { tools, stopWhen: isStepCount(s.max_tool_rounds) } : {}),
    onError: ({ error: e }) => {
      error ??= e;
    },
  });
  let answer = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      answer += part.text;
      turn.emit.delta(part.text);
    } else if (part.type === 'reasoning-delta') turn.emit.reasoning(part.text);
    else if (part.type === 'error') error ??= part.error;
  }
  if (turn.signal.aborted) throw new Error('cancelled');
  if (error)
    throw Object.assign(new Error(`The model call failed: ${errorText(error)}`), {
      text: { key: 'bot-single-agent.modelFailed', params: { detail: errorText(error) } },
    });
  const usage = await result.totalUsage;
  const tokens = { input_tokens: usage.inputTokens ?? 0, output_tokens: usage.outputTokens ?? 0 };
  await turn.recordUsage({ model_id: model.model_id, ...tokens });
  return { answer, usage: tokens };
}
