import type { NodeTypeDefinition } from '@tessera/ext-workflow/shared';
import type { Models } from '@tessera/ext-models/shared';
import { z } from 'zod';

const IntentSettings = z.object({
  model_id: z.string().min(1, 'Choose a model.'),
  /** The model's name when it was chosen (shown on the card; the id is what runs). */
  model_name: z.string().max(200).optional(),
  intents: z.array(z.string().min(1).max(500)).min(1, 'Add at least one intent.').max(50),
  /** fast: only the class; full: the class and the reason. */
  mode: z.enum(['fast', 'full']).default('fast'),
  instructions: z.string().max(10_000).default(''),
});

export const intentPort = (i: number) => `branch_${i}`;

export function intentNode(models: () => Models): NodeTypeDefinition {
  return {
    key: 'intent',
    code: 22,
    category: 'ai',
    label: { 'en-US': 'Intent recognition', 'zh-CN': '意图识别' },
    description: {
      'en-US': "Classifies the input `query` into one of the intents (one branch each, plus 'other').",
      'zh-CN': '把输入 query 归入某个意图（每个意图一个分支，另有“其他”）。',
    },
    settings: IntentSettings,
    ports: (node) => [
      ...((node.node_param.settings as { intents?: string[] })?.intents ?? []).map((_, i) => intentPort(i)),
      'default',
    ],
    outputsOf: () => [
      { name: 'classificationId', type: 'integer' },
      { name: 'reason', type: 'string' },
    ],
    async execute(ctx) {
      const s = ctx.settings as z.infer<typeof IntentSettings>;
      const model = await models().get(ctx.spaceId, s.model_id);
      const list = s.intents.map((t, i) => `${i + 1}. ${t}`).join('\n');
      const system = [
        'You classify a user query into exactly one of the numbered intents, or 0 when none fits.',
        s.mode === 'full'
          ? 'Answer with JSON only: {"classificationId": <number>, "reason": "<one sentence>"}.'
          : 'Answer with JSON only: {"classificationId": <number>}.',
        s.instructions ? `Also: ${ctx.render(s.instructions)}` : '',
        `Intents:\n${list}`,
      ]
        .filter(Boolean)
        .join('\n\n');
      const { generateText } = await import('ai');
      const r = await generateText({
        model: await model.chat(),
        system,
        prompt: String(ctx.inputs.query ?? ''),
        temperature: 0,
        abortSignal: ctx.signal,
        maxRetries: 1,
      });
      const usage = { input_tokens: r.usage.inputTokens ?? 0, output_tokens: r.usage.outputTokens ?? 0 };
      await models().recordUsage({
        space_id: ctx.spaceId,
        model_id: model.model_id,
        ...usage,
        source: 'workflow',
        run_id: ctx.runId,
      });
      const match = /\{[\s\S]*\}/.exec(r.text);
      let id = 0;
      let reason = '';
      try {
        const parsed = JSON.parse(match?.[0] ?? r.text) as { classificationId?: unknown; reason?: unknown };
        id = Number(parsed.classificationId) || 0;
        reason = typeof parsed.reason === 'string' ? parsed.reason : '';
      } catch {
        const n = /\b(\d+)\b/.exec(r.text);
        id = n ? Number(n[1]) : 0;
      }
      if (!Number.isInteger(id) || id < 0 || id > s.intents.length) id = 0;
      return { outputs: { classificationId: id, reason }, branch: id === 0 ? 'default' : intentPort(id - 1), usage };
    },
  };
}
