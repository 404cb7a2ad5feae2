// Mock data written by a chat model (/api/devops/debugger/v1/coze/autogenMockDataTask...): from the API's response
// parameters and what the person asks, `quantity` responses, each added to the mock set as a rule, in a background
// job; its state read until done, or cancelled.
import { describeError } from '@tessera/sdk';
import { JobQueueService, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { ModelsService, type Models } from '@tessera/ext-models/shared';
import { PluginsService, paramsToJsonSchema } from '@tessera/ext-plugins/shared';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import { CancelGenTask, CreateGenTask, GenStatus, GetGenTask, RequestFilterType } from '../../shared/api.ts';
import { iso, DebuggerStore, type GenTaskRow } from '../store.ts';
import { texts } from '../texts.ts';

export const GEN_JOB = 'debugger.generate';
const STATUS_NAMES: Record<number, string> = { 2: 'succeeded', 3: 'failed', 4: 'cancelled' };

/** The responses in a model's answer: a JSON array (in a code block or not), or one object. */
export function readChoices(text: string, quantity: number): unknown[] {
  const at = text.search(/[[{]/);
  if (at < 0) return [];
  const body = text
    .slice(at)
    .replace(/```\s*$/, '')
    .trim();
  for (let end = body.length; end > 0; end = body.lastIndexOf(body[0] === '[' ? ']' : '}', end - 1)) {
    try {
      const v: unknown = JSON.parse(body.slice(0, end + (end === body.length ? 0 : 1)));
      return (Array.isArray(v) ? v : [v]).slice(0, quantity);
    } catch {
      // a shorter prefix may be the JSON
    }
  }
  return [];
}

/**
 * Asks a chat model for a JSON array (what it is told: the system text and the lines of the request) and answers the
 * items read from its answer; the tokens are recorded against the space.
 */
export async function askForItems(
  models: Models,
  spaceId: string,
  modelId: string,
  ask: { system: string; lines: string[]; count: number; temperature: number; signal?: AbortSignal },
): Promise<unknown[]> {
  const model = await models.get(spaceId, modelId);
  const { generateText } = await import('ai');
  const r = await generateText({
    model: await model.chat(),
    temperature: ask.temperature,
    maxRetries: 1,
    abortSignal: ask.signal,
    system: ask.system,
    messages: [{ role: 'user', content: ask.lines.filter(Boolean).join('\n') }],
  });
  await models
    .recordUsage({
      space_id: spaceId,
      model_id: model.model_id,
      input_tokens: r.usage?.inputTokens ?? 0,
      output_tokens: r.usage?.outputTokens ?? 0,
      source: 'debugger',
    })
    .catch(() => undefined);
  return readChoices(r.text, ask.count);
}

export class Generator {
  static readonly inject = [ServerContextToken, DebuggerStore] as const;
  readonly #ctx: ServerContext;
  readonly #store: DebuggerStore;
  constructor(ctx: ServerContext, store: DebuggerStore) {
    this.#ctx = ctx;
    this.#store = store;
  }
  async task(id: string): Promise<GenTaskRow> {
    const t = await this.#store.db.selectFrom('debugger_gen_task').selectAll().where('id', '=', id).executeTakeFirst();
    if (!t) throw texts.error(404, 'noTask', { id });
    return t;
  }
  async #set(id: string, set: Partial<GenTaskRow>) {
    await this.#store.db
      .updateTable('debugger_gen_task')
      .set({ ...set, updated_at: iso() })
      .where('id', '=', id)
      .execute();
  }

  /** What the model is told of the API or workflow whose answers it writes: its name, what it does, its schema. */
  async #describe(set: { space_id: string; component_type: number; component_id: string; parent_id: string }) {
    if (Number(set.component_type) === 10002) {
      const runner = this.#ctx.optionalService(WorkflowRunnerService);
      const w = (await runner?.list?.(set.space_id))?.find((x) => x.workflow_id === set.component_id);
      if (!w) throw new Error(`The workflow ${set.component_id} is gone.`);
      const properties = Object.fromEntries(w.outputs.map((o) => [o, {}]));
      return `Workflow: ${w.name}: ${w.description}\nResponse schema: ${JSON.stringify({ type: 'object', properties })}`;
    }
    const tool = await this.#ctx
      .optionalService(PluginsService)
      ?.tool(set.space_id, set.parent_id, set.component_id, 'draft');
    if (!tool) throw new Error(`The plugin API ${set.component_id} is gone.`);
    return `API: ${tool.name} (${tool.plugin_name}): ${tool.desc}\nResponse schema: ${JSON.stringify(
      paramsToJsonSchema(tool.response_params),
    )}`;
  }

  /** The job: asks the model, then adds each response as a rule (unless the task was cancelled meanwhile). */
  async run(taskId: string): Promise<void> {
    const t = await this.task(taskId);
    if (t.status !== GenStatus.Running) return;
    try {
      const set = await this.#store.mockSet(t.mock_set_id);
      const about = await this.#describe(set);
      const items = await askForItems(this.#ctx.service(ModelsService), set.space_id, t.model_id, {
        system:
          'You write realistic mock responses of an HTTP API or a workflow for testing. Answer with a JSON array ' +
          'only: each item one complete response that fits the response schema, with varied, plausible values.',
        lines: [
          about,
          `Write ${t.quantity} responses.`,
          t.description ? `What they should show: ${t.description}` : '',
        ],
        count: Number(t.quantity),
        temperature: 0.7,
      });
      if (!items.length) throw new Error('The model answered no JSON responses; try again or describe them.');
      if ((await this.task(taskId)).status !== GenStatus.Running) return;
      const choices: { content: string; rule_id: string }[] = [];
      const now = iso();
      for (const [i, item] of items.entries()) {
        const id = this.#store.newId();
        const content = JSON.stringify(item, null, 2);
        await this.#store.db
          .insertInto('debugger_mock_rule')
          .values({
            id,
            mock_set_id: set.id,
            name: `Generated ${i + 1}`.slice(0, 50),
            description: t.description.slice(0, 2000),
            priority: 0,
            filter_type: RequestFilterType.ByPass,
            filter_rule: '',
            expect_type: 1,
            expect_rule: content,
            creator_id: t.creator_id,
            created_at: now,
            updated_at: now,
          })
          .execute();
        choices.push({ content, rule_id: id });
      }
      await this.#set(taskId, { status: GenStatus.Succeeded, choices: JSON.stringify(choices) });
    } catch (e) {
      await this.#set(taskId, { status: GenStatus.Failed, error: describeError(e).slice(0, 2000) });
    }
  }
}

export function registerGenerateRoutes(ctx: ServerContext, store: DebuggerStore, gen: Generator): void {
  const ofSet = {
    space: async (r: { body: { mockSetID?: unknown } }) =>
      (await store.mockSet(String(r.body?.mockSetID ?? ''))).space_id,
  };
  const ofTask = {
    space: async (r: { body: { taskID?: unknown } }) => (await gen.task(String(r.body?.taskID ?? ''))).space_id,
  };
  ctx.route({
    ...CreateGenTask,
    auth: ofSet,
    handler: async ({ body, caller }) => {
      const set = await store.mockSet(body.mockSetID);
      const models = ctx.optionalService(ModelsService);
      if (!models) throw texts.error(400, 'modelsOff');
      const modelId = body.model_id || (await models.defaultModel(set.space_id, 'chat'))?.model_id;
      if (!modelId) throw texts.error(400, 'noModel');
      await models.get(set.space_id, modelId);
      const now = iso();
      const row: GenTaskRow = {
        id: store.newId(),
        space_id: set.space_id,
        mock_set_id: set.id,
        quantity: body.quantity,
        description: body.desc,
        model_id: modelId,
        status: GenStatus.Running,
        choices: '[]',
        error: '',
        creator_id: caller!.userId,
        created_at: now,
        updated_at: now,
      };
      await store.db.insertInto('debugger_gen_task').values(row).execute();
      await ctx.service(JobQueueService).enqueue(GEN_JOB, { task_id: row.id });
      return { taskID: row.id };
    },
  });
  ctx.route({
    ...GetGenTask,
    auth: ofTask,
    handler: async ({ body }) => {
      const t = await gen.task(body.taskID);
      return { status: Number(t.status), choices: JSON.parse(t.choices) as never, error: t.error };
    },
  });
  ctx.route({
    ...CancelGenTask,
    auth: ofTask,
    handler: async ({ body }) => {
      const t = await gen.task(body.taskID);
      if (Number(t.status) !== GenStatus.Running)
        throw texts.error(409, 'notRunning', { status: STATUS_NAMES[Number(t.status)] ?? String(t.status) });
      await store.db
        .updateTable('debugger_gen_task')
        .set({ status: GenStatus.Cancelled, updated_at: iso() })
        .where('id', '=', t.id)
        .execute();
      return {};
    },
  });
}
