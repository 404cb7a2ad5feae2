// What a data job does with one item, by kind: a model asked (a library prompt with the item's fields as variables,
// or a model given a field), an evaluator's score, or a script in the code sandbox. Each is checked when the job is
// made (a prompt without a model, a field the dataset lacks, a service this studio does not run: a clear 4xx) and
// made ready again when it runs.
import { badRequest, isRecord, notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { EvaluatorRunsService } from '@tessera/ext-evaluation/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { CodeSandboxService } from '@tessera/ext-node-code/shared';
import { PromptsService } from '@tessera/ext-prompts/shared';
import { AskSettings, ProcessSettings, ScoreSettings, type DataJobKind, type Field } from '../shared/api.ts';
import { checkData } from './store.ts';

export interface ItemOutcome {
  /** The value written to the output field (or, for a script, the fields set). */
  value?: unknown;
  /** A script dropped the item. */
  remove?: boolean;
  /** Why (an evaluator's reason). */
  message?: string;
}
export interface PreparedKind {
  /** The type the output field gets when the dataset has none of that name. */
  fieldType?: Field['type'];
  run(data: Record<string, unknown>, signal: AbortSignal): Promise<ItemOutcome>;
}

const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

function needField(fields: Field[], name: string | undefined, what: string) {
  if (name && !fields.some((f) => f.name === name))
    throw badRequest(`The dataset has no field ${name} (${what}).`, { field: 'settings' });
}

function parsed<T>(
  schema: {
    safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  v: unknown,
): T {
  const r = schema.safeParse(v);
  if (!r.success) throw badRequest(r.error.issues[0]?.message ?? 'The settings are not valid.', { field: 'settings' });
  return r.data;
}

function unavailable(what: string): never {
  throw badRequest(`${what} are not available in this studio (their extension is off).`, { field: 'kind' });
}

/** The answer as the output type keeps it, or an Error saying why it cannot be. */
function keep(answer: string, type: 'text' | 'number' | 'json'): unknown {
  const t = answer.trim();
  if (type === 'text') return t;
  if (type === 'number') {
    const m = /-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/i.exec(t);
    if (!m) throw new Error(`The answer holds no number: "${t.slice(0, 80)}"`);
    return Number(m[0]);
  }
  const body = t.replace(/^```(?:json)?\s*/i, '').replace(/```\s*$/, '');
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`The answer is not JSON: "${t.slice(0, 80)}"`);
  }
}

async function ask(ctx: ServerContext, spaceId: string, raw: unknown, fields: Field[]): Promise<PreparedKind> {
  const s = parsed(AskSettings, raw);
  const models = ctx.optionalService(ModelsService) ?? unavailable('Models');
  const fieldType = s.outputType;
  if (s.promptKey) {
    const prompts = ctx.optionalService(PromptsService) ?? unavailable('Prompts');
    const p = await prompts.resolve(spaceId, s.promptKey, { label: s.promptLabel, version: s.promptVersion });
    if (!p) throw notFound(`The space has no prompt ${s.promptKey} with that version or label.`);
    const modelId = p.detail.model_config.model_id;
    if (!modelId)
      throw badRequest(`The prompt ${s.promptKey} ${p.version} has no model: choose one in the prompt and commit.`, {
        field: 'settings',
      });
    await models.get(spaceId, modelId);
    const vars = p.detail.prompt_template.variable_defs.map((v) => ({
      key: v.key,
      field: s.variables[v.key] ?? v.key,
    }));
    for (const v of vars) needField(fields, v.field, `the prompt's variable ${v.key}`);
    const mc = p.detail.model_config;
    return {
      fieldType,
      async run(data, signal) {
        const { messages } = await prompts.render(
          p.detail,
          Object.fromEntries(vars.map((v) => [v.key, text(data[v.field])])),
        );
        const r = await models.complete({
          spaceId,
          modelId,
          messages,
          temperature: mc.temperature,
          maxOutputTokens: mc.max_tokens,
          topP: mc.top_p,
          signal,
          source: 'datasets',
        });
        return { value: keep(r.text, s.outputType) };
      },
    };
  }
  await models.get(spaceId, s.modelID!);
  needField(fields, s.inputField, 'sent to the model');
  return {
    fieldType,
    async run(data, signal) {
      const r = await models.complete({
        spaceId,
        modelId: s.modelID!,
        system: s.system,
        messages: [{ role: 'user', content: text(data[s.inputField!]) }],
        signal,
        source: 'datasets',
      });
      return { value: keep(r.text, s.outputType) };
    },
  };
}

async function score(ctx: ServerContext, spaceId: string, raw: unknown, fields: Field[]): Promise<PreparedKind> {
  const s = parsed(ScoreSettings, raw);
  const runs = ctx.optionalService(EvaluatorRunsService) ?? unavailable('Evaluators');
  const ref = await runs.resolve(spaceId, s.evaluatorID, s.evaluatorVersion);
  needField(fields, s.inputField, 'the input judged');
  needField(fields, s.outputField, 'the output judged');
  needField(fields, s.referenceField, 'the reference');
  return {
    fieldType: 'number',
    async run(data, signal) {
      const r = await runs.evaluate(spaceId, ref, {
        input: text(s.inputField ? data[s.inputField] : ''),
        output: text(data[s.outputField]),
        reference: text(s.referenceField ? data[s.referenceField] : ''),
        item: data,
        signal,
      });
      return { value: r.score, message: r.reason };
    },
  };
}

function script(ctx: ServerContext, spaceId: string, raw: unknown, fields: Field[]): PreparedKind {
  const s = parsed(ProcessSettings, raw);
  const sandbox = ctx.optionalService(CodeSandboxService) ?? unavailable("The code node's sandbox and scripts");
  return {
    async run(data) {
      const r = await sandbox.run(s.language, s.code, data, { timeoutMs: 5000, memoryMb: 64 }, spaceId);
      if (r === null) return { remove: true };
      if (!isRecord(r))
        throw new Error('The script returned neither the fields to set (an object) nor null (drop the item).');
      const merged = checkData(fields, { ...data, ...r });
      if ('problem' in merged) throw new Error(merged.problem.message);
      // The fields it set, converted to their types as the dataset keeps them.
      return { value: Object.fromEntries(Object.keys(r).map((k) => [k, merged.data[k]])) };
    },
  };
}

export async function prepareKind(
  ctx: ServerContext,
  spaceId: string,
  kind: DataJobKind,
  settings: unknown,
  fields: Field[],
): Promise<PreparedKind> {
  switch (kind) {
    case 'ai_annotate':
    case 'batch_inference':
      return ask(ctx, spaceId, settings, fields);
    case 'quality_score':
      return score(ctx, spaceId, settings, fields);
    case 'process':
      return script(ctx, spaceId, settings, fields);
  }
}

/** What jobs of the space can use, each list empty when its extension is off. */
export async function sources(ctx: ServerContext, spaceId: string) {
  const prompts = ctx.optionalService(PromptsService);
  const models = ctx.optionalService(ModelsService);
  const runs = ctx.optionalService(EvaluatorRunsService);
  const listed = prompts ? await prompts.list(spaceId) : [];
  return {
    prompts: await Promise.all(
      listed.map(async (p) => ({
        key: p.prompt_key,
        name: p.name,
        variables: ((await prompts!.resolve(spaceId, p.prompt_key))?.detail.prompt_template.variable_defs ?? []).map(
          (v) => v.key,
        ),
      })),
    ),
    models: models
      ? (await models.list(spaceId, 'chat'))
          .filter((m) => m.enabled)
          .map((m) => ({ id: m.model_id, name: m.display_name || m.model_name }))
      : [],
    evaluators: runs ? (await runs.list(spaceId)).map((e) => ({ id: e.evaluator_id, name: e.name })) : [],
    scripts: !!ctx.optionalService(CodeSandboxService),
  };
}
