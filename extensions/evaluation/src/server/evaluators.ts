// Evaluators: an LLM-as-judge (a prompt with {{input}}, {{output}} and {{reference}}, a model, a score range)
// and code (a main({ params }) in the code node's sandbox answering { score, reason }); built-in judge templates
// (correctness, relevance, faithfulness); versions; debug one on a sample.
import { badRequest, parseStoredJson, describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { CodeSandboxService } from '@tessera/ext-node-code/shared';
import { z } from 'zod';
import { Evaluators, type EvaluatorKind } from '../shared/index.ts';
import { inSpace, nextVersion, now, owned, secs } from './common.ts';
import { EvaluatorView } from '../shared/answers.ts';
import {
  NewEvaluator,
  DebugEvaluator,
  DeleteEvaluator,
  EvaluatorTemplatesList,
  ListEvaluators,
  SubmitEvaluatorVersion,
} from '../shared/api.ts';
import { evalDb, type EvaluatorRow } from './db.ts';

const JudgeSettings = z.object({
  prompt: z.string().trim().min(1, "Write the judge's instructions.").max(20_000),
  model_id: z.string().min(1, 'Choose the model that judges.').max(32),
  score_min: z.number().default(0),
  score_max: z.number().default(1),
});
const CodeSettings = z.object({
  language: z.enum(['javascript', 'typescript', 'python']).default('javascript'),
  code: z
    .string()
    .trim()
    .min(
      1,
      'Write the code: a function main({ params }) answering { score, reason } (params: input, output, reference, item).',
    )
    .max(100_000),
});

export const TEMPLATES = [
  {
    key: 'correctness',
    name: { 'en-US': 'Correctness', 'zh-CN': '正确性' },
    prompt:
      'Judge whether the answer is correct, given the reference answer.\nQuestion: {{input}}\nReference: {{reference}}\nAnswer: {{output}}\nScore 1 when it states the same facts as the reference, 0 when it contradicts it or misses them; in between for partly correct.',
  },
  {
    key: 'relevance',
    name: { 'en-US': 'Relevance', 'zh-CN': '相关性' },
    prompt:
      'Judge how well the answer addresses the question (not whether it is true).\nQuestion: {{input}}\nAnswer: {{output}}\nScore 1 for a direct, on-topic answer, 0 for an unrelated one.',
  },
  {
    key: 'faithfulness',
    name: { 'en-US': 'Faithfulness', 'zh-CN': '忠实度' },
    prompt:
      'Judge whether every claim of the answer is supported by the context.\nContext: {{reference}}\nAnswer: {{output}}\nScore 1 when all claims are supported, 0 when the answer invents facts.',
  },
];

const fill = (t: string, v: Record<string, string>) =>
  t.replace(/\{\{\s*(input|output|reference)\s*\}\}/g, (_m, k: string) => v[k] ?? '');
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

export function registerEvaluatorKinds(ctx: ServerContext<unknown>) {
  const judge: EvaluatorKind = {
    kind: 'llm_judge',
    label: { 'en-US': 'LLM as judge', 'zh-CN': 'LLM 评估' },
    settings: JudgeSettings,
    async evaluate(e) {
      const s = JudgeSettings.parse(e.settings);
      const r = await ctx.service(ModelsService).complete({
        spaceId: e.spaceId,
        modelId: s.model_id,
        temperature: 0,
        signal: e.signal,
        source: 'evaluation',
        system: `You are an evaluator. Answer only a JSON object {"score": number from ${s.score_min} to ${s.score_max}, "reason": "why, in one or two sentences"}.`,
        messages: [
          { role: 'user', content: fill(s.prompt, { input: e.input, output: e.output, reference: e.reference }) },
        ],
      });
      const text = r.text
        .trim()
        .replace(/^```(?:json)?\s*/i, '')
        .replace(/```\s*$/, '');
      let parsed: { score?: unknown; reason?: unknown };
      try {
        parsed = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));
      } catch {
        throw new Error(`The judge did not answer a score as JSON: "${text.slice(0, 120)}"`);
      }
      const score = Number(parsed.score);
      if (!Number.isFinite(score))
        throw new Error(`The judge's score is not a number: ${JSON.stringify(parsed.score)}`);
      return { score: clamp(score, s.score_min, s.score_max), reason: String(parsed.reason ?? '') };
    },
  };
  const code: EvaluatorKind = {
    kind: 'code',
    label: { 'en-US': 'Code', 'zh-CN': '代码' },
    settings: CodeSettings,
    async evaluate(e) {
      const s = CodeSettings.parse(e.settings);
      const sandbox = ctx.optionalService(CodeSandboxService);
      if (!sandbox)
        throw new Error("Code evaluators run in the code node's sandbox, and the code node is off in this studio.");
      const r = (await sandbox.run(
        s.language,
        s.code,
        { input: e.input, output: e.output, reference: e.reference, item: e.item },
        { timeoutMs: 5000, memoryMb: 64 },
        e.spaceId,
      )) as { score?: unknown; reason?: unknown } | number | null;
      const score = typeof r === 'number' ? r : Number(r?.score);
      if (!Number.isFinite(score))
        throw new Error('The code answered no score: return { score: number, reason: string } (or a number).');
      return { score, reason: typeof r === 'object' && r ? String(r.reason ?? '') : '' };
    },
  };
  ctx.register(Evaluators, judge);
  ctx.register(Evaluators, code);
}

export function registerEvaluatorRoutes(ctx: ServerContext<unknown>) {
  const kindOf = (k: string) => {
    const kind = ctx.registry(Evaluators).get(k);
    if (!kind)
      throw badRequest(
        `There is no evaluator kind ${k} (there are ${ctx
          .registry(Evaluators)
          .list()
          .map((x) => x.kind)
          .join(', ')}).`,
        { field: 'kind' },
      );
    return kind;
  };
  const checked = (kind: EvaluatorKind, settings: unknown) => {
    const r = kind.settings.safeParse(settings);
    if (!r.success)
      throw badRequest(r.error.issues[0]?.message ?? 'The settings are not valid.', { field: 'settings' });
    return r.data as Record<string, unknown>;
  };
  const addVersion = async (e: { id: string; latest_version: string }, settings: Record<string, unknown>) => {
    const v = nextVersion(e.latest_version);
    await evalDb(ctx)
      .insertInto('eval_evaluator_version')
      .values({
        id: ctx.host.newId(),
        evaluator_id: e.id,
        version: v,
        settings: JSON.stringify(settings),
        created_at: now(),
      })
      .execute();
    await evalDb(ctx)
      .updateTable('eval_evaluator')
      .set({ latest_version: v, updated_at: now() })
      .where('id', '=', e.id)
      .execute();
    return v;
  };
  const view = async (e: EvaluatorRow) => {
    const v = await evalDb(ctx)
      .selectFrom('eval_evaluator_version')
      .select('settings')
      .where('evaluator_id', '=', e.id)
      .where('version', '=', e.latest_version)
      .executeTakeFirst();
    return {
      evaluator_id: e.id,
      name: e.name,
      description: e.description,
      kind: e.kind,
      latest_version: e.latest_version,
      settings: v ? parseStoredJson(v.settings, "The evaluator's settings", EvaluatorView.shape.settings) : {},
      update_time: secs(e.updated_at),
    };
  };

  ctx.route({
    ...EvaluatorTemplatesList,
    auth: 'user',
    handler: () => ({
      templates: TEMPLATES,
      kinds: ctx
        .registry(Evaluators)
        .list()
        .map((k) => ({ kind: k.kind, label: k.label })),
    }),
  });
  ctx.route({
    ...NewEvaluator,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const settings = checked(kindOf(body.kind), body.settings);
      const id = ctx.host.newId();
      const t = now();
      await evalDb(ctx)
        .insertInto('eval_evaluator')
        .values({
          id,
          space_id: body.space_id,
          name: body.name,
          description: body.description,
          kind: body.kind,
          creator_id: caller!.userId,
          latest_version: '',
          created_at: t,
          updated_at: t,
          deleted_at: null,
        })
        .execute();
      return { evaluator_id: id, version: await addVersion({ id, latest_version: '' }, settings) };
    },
  });
  ctx.route({
    ...SubmitEvaluatorVersion,
    auth: inSpace,
    handler: async ({ body }) => {
      const e = await owned(ctx, 'eval_evaluator', body.evaluator_id, body.space_id, 'evaluator');
      return { version: await addVersion(e, checked(kindOf(e.kind), body.settings)) };
    },
  });
  ctx.route({
    ...ListEvaluators,
    auth: inSpace,
    handler: async ({ body }) => ({
      evaluators: await Promise.all(
        (
          await evalDb(ctx)
            .selectFrom('eval_evaluator')
            .selectAll()
            .where('space_id', '=', body.space_id)
            .where('deleted_at', 'is', null)
            .orderBy('name')
            .execute()
        ).map(view),
      ),
    }),
  });
  ctx.route({
    ...DeleteEvaluator,
    auth: inSpace,
    handler: async ({ body }) => (
      await owned(ctx, 'eval_evaluator', body.evaluator_id, body.space_id, 'evaluator'),
      await evalDb(ctx)
        .updateTable('eval_evaluator')
        .set({ deleted_at: now() })
        .where('id', '=', body.evaluator_id)
        .execute(),
      {}
    ),
  });
  ctx.route({
    ...DebugEvaluator,
    auth: inSpace,
    handler: async ({ body, signal }) => {
      const kind = kindOf(body.kind);
      const settings = checked(kind, body.settings);
      try {
        return await kind.evaluate({
          spaceId: body.space_id,
          settings,
          input: body.input,
          output: body.output,
          reference: body.reference,
          item: {},
          signal,
        });
      } catch (e) {
        throw badRequest(`The evaluator failed: ${describeError(e)}`);
      }
    },
  });
}
