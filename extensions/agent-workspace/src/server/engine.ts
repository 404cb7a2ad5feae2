// A task moves one background job at a time: the first writes the plan (and waits for the person in confirm_plan
// mode), each next one carries out one step with the model and the task's tools, the last writes the summary. Jobs
// run on any studio process; a lease keeps two from working on one task. Between steps the limits are checked
// (steps, tokens, minutes of work); a pause lets the model's current call finish, a stop ends it at once. Pages
// follow a task live (BroadcastService) or poll its log. The model SDK loads with the first task.
import { BroadcastService, JobQueueService, type ServerContext, ServerContextToken } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import type { BotTool } from '@tessera/ext-bots/shared';
import type { ToolSet } from 'ai';
import { ENDED, type Expert, type PlanStep } from '../shared/api.ts';
import { configOf, iso, planOf, type MessageRow, type NewMessage, type TaskRow, WorkspaceStore } from './store.ts';
import { texts, type EndText } from './texts.ts';
import { fieldOf } from '@tessera/sdk';

export const STEP_JOB = 'agent-workspace.step';
/** Where a task's lines and changes are told. */
export const taskChannel = (taskId: string) => `agent-workspace.task.${taskId}`;
/** Where a pause or a stop reaches the process working on the task. */
const HALT = 'agent-workspace.halt';
/** The longest one step may hold a task (a process that died mid-step gives it up after this). */
const LEASE_MS = 15 * 60_000;
/** Model calls within one plan step at most (the task's step limit counts each). */
const CALLS_PER_STEP = 12;
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
const asJson = (v: unknown) => {
  try {
    return clip(JSON.stringify(v ?? null), 20_000);
  } catch {
    return '"(not JSON)"';
  }
};
const errorText = (e: unknown) => {
  const status = fieldOf(e, 'statusCode');
  return `${status ? `HTTP ${String(status)}: ` : ''}${String(fieldOf(e, 'message') ?? e)}`;
};

/**
 * Where a job's time went: the model's calls, the tools' own work, and the rest (the workspace's bookkeeping: the
 * lease, reading the task, prompts, saving and telling each line, the next job). Told to followers after each job.
 */
export interface Timing {
  kind: 'plan' | 'step' | 'summary' | 'none';
  step_index: number;
  total_ms: number;
  model_ms: number;
  tool_ms: number;
  overhead_ms: number;
}
type Clock = { kind: Timing['kind']; step_index: number; model: number; tool: number; own: number };
type Work = { abort: AbortController; halt: boolean; clock: Clock };

export type Told = {
  task?: TaskRow;
  message?: MessageRow;
  delta?: { step_index: number; text: string };
  timing?: Timing;
};

export class Engine {
  static readonly inject = [ServerContextToken, WorkspaceStore] as const;
  readonly #ctx: ServerContext;
  readonly #store: WorkspaceStore;
  /** Tasks this process works on, with what ends their model call (a stop) and whether to halt after it (a pause). */
  readonly #working = new Map<string, Work>();

  constructor(ctx: ServerContext, store: WorkspaceStore) {
    this.#ctx = ctx;
    this.#store = store;
  }

  #unlisten?: () => void;
  /** Pauses and stops reach the process working on a task, whichever process was asked (listened from its first step). */
  #listen(): void {
    this.#unlisten ??= this.#ctx.service(BroadcastService).subscribe(HALT, (m) => {
      const { task_id, stop } = m as { task_id: string; stop: boolean };
      const w = this.#working.get(task_id);
      if (!w) return;
      w.halt = true;
      if (stop) w.abort.abort(new Error('stopped'));
    });
  }
  close(): void {
    this.#unlisten?.();
  }
  halt(taskId: string, stop: boolean): void {
    this.#ctx.service(BroadcastService).publish(HALT, { task_id: taskId, stop });
  }

  async queue(taskId: string): Promise<void> {
    await this.#ctx.service(JobQueueService).enqueue(STEP_JOB, { task_id: taskId });
  }
  #tell(taskId: string, told: Told) {
    this.#ctx.service(BroadcastService).publish(taskChannel(taskId), told);
  }
  /** Saves a line of the log and tells the pages following it. */
  async say(taskId: string, m: NewMessage): Promise<MessageRow> {
    const row = await this.#store.add(taskId, m);
    this.#tell(taskId, { message: row });
    return row;
  }
  /**
   * Writes a task's fields and tells the pages following it. A change of status is made only from the status `t`
   * was read in: when another came meanwhile (a stop during a step), nothing is written and the task as it is
   * now is returned.
   */
  async set(t: TaskRow, set: Partial<TaskRow>): Promise<TaskRow> {
    const guarded = set.status !== undefined && set.status !== t.status;
    if (!(await this.#store.set(t.id, set, guarded ? t.status : undefined))) return this.#store.task(t.id);
    const next = { ...t, ...set, updated_at: iso() };
    this.#tell(t.id, { task: next });
    return next;
  }
  /** Ends a task still in the status it was read in, with the notice that says why (written together). */
  async end(t: TaskRow, status: 'finished' | 'failed' | 'stopped', code: string, why: EndText): Promise<TaskRow> {
    const set = { status, end_code: code, end_text: JSON.stringify(why), question: '', finished_at: iso() };
    const notice = await this.#store.end(t.id, t.status, set, {
      kind: 'notice',
      content: texts.text(why.key, why.params, 'en-US'),
      data: JSON.stringify(why),
    });
    if (!notice) return this.#store.task(t.id);
    this.#tell(t.id, { message: notice });
    const next = { ...t, ...set, updated_at: iso() };
    this.#tell(t.id, { task: next });
    return next;
  }

  /** The limit a task has reached, if any (checked before each step). */
  limitReached(t: TaskRow): { code: string; why: EndText } | undefined {
    const l = configOf(t).limits;
    if (Number(t.steps) >= l.max_steps)
      return { code: 'step_limit', why: { key: 'endSteps', params: { max: String(l.max_steps) } } };
    if (Number(t.input_tokens) + Number(t.output_tokens) >= l.max_tokens)
      return { code: 'token_limit', why: { key: 'endTokens', params: { max: String(l.max_tokens) } } };
    if (Number(t.run_ms) >= l.max_minutes * 60_000)
      return { code: 'time_limit', why: { key: 'endTime', params: { max: String(l.max_minutes) } } };
    return undefined;
  }

  /**
   * Tasks at work that nothing works on (the process working on one stopped mid-step, its job gone): their lease has
   * run out and they have not changed for a while; each is queued again (a lease keeps a second job from doubling).
   */
  async sweep(): Promise<void> {
    const idle = new Date(Date.now() - 2 * 60_000).toISOString();
    const rows = await this.#store.db
      .selectFrom('agent_task')
      .select('id')
      .where('status', 'in', ['planning', 'running'])
      .where('lease_until', '<', Date.now())
      .where('updated_at', '<', idle)
      .limit(100)
      .execute();
    for (const r of rows) await this.queue(r.id);
  }

  /** The job: the task's next move, if it is its turn and no other job holds it. */
  async advance(taskId: string): Promise<void> {
    const first = await this.#store.find(taskId);
    if (!first || (first.status !== 'planning' && first.status !== 'running')) return;
    const started = performance.now();
    if (!(await this.#store.lease(taskId, LEASE_MS))) return;
    this.#listen();
    const work: Work = {
      abort: new AbortController(),
      halt: false,
      clock: { kind: 'none', step_index: -1, model: 0, tool: 0, own: 0 },
    };
    this.#working.set(taskId, work);
    let again = false;
    try {
      const t = await this.#store.task(taskId);
      if (t.status === 'planning') again = await this.#plan(t, work);
      else if (t.status === 'running') again = await this.#next(t, work);
    } catch (e) {
      const t = await this.#store.find(taskId);
      if (t && !ENDED.includes(t.status))
        await this.end(t, 'failed', 'failed', { key: 'endFailed', params: { detail: errorText(e) } });
    } finally {
      this.#working.delete(taskId);
      await this.#store.release(taskId);
    }
    // An answer or a resume that came while this job held the lease queued a job that found it held: go on for it.
    const resumed = !again && ['planning', 'running'].includes((await this.#store.find(taskId))?.status ?? '');
    if (again || resumed) await this.queue(taskId);
    const c = work.clock;
    const total = performance.now() - started;
    const round = (x: number) => Math.round(x * 1000) / 1000;
    this.#tell(taskId, {
      timing: {
        kind: c.kind,
        step_index: c.step_index,
        total_ms: round(total),
        model_ms: round(c.model),
        tool_ms: round(c.tool),
        overhead_ms: round(total - c.model - c.tool),
      },
    });
  }

  /** The agent's tools and prompts load with the first task a process works on. */
  #parts?: Promise<[typeof import('./tools.ts'), typeof import('./prompts.ts')]>;
  #load() {
    return (this.#parts ??= Promise.all([import('./tools.ts'), import('./prompts.ts')]));
  }

  async #model(t: TaskRow, modelId?: string) {
    const models = this.#ctx.service(ModelsService);
    const model = await models.get(t.space_id, modelId || configOf(t).model_id);
    return { models, model, chat: await model.chat() };
  }
  async #spent(t: TaskRow, modelId: string, input: number, output: number, steps: number, ms: number) {
    const set = {
      input_tokens: Number(t.input_tokens) + input,
      output_tokens: Number(t.output_tokens) + output,
      steps: Number(t.steps) + steps,
      run_ms: Number(t.run_ms) + ms,
    };
    await this.#ctx
      .service(ModelsService)
      .recordUsage({
        space_id: t.space_id,
        model_id: modelId,
        input_tokens: input,
        output_tokens: output,
        source: 'agent-workspace',
      })
      .catch(() => undefined);
    return set;
  }

  /** Writes the plan; true when the task goes straight on. */
  async #plan(t: TaskRow, work: Work): Promise<boolean> {
    work.clock.kind = 'plan';
    const cfg = configOf(t);
    const started = Date.now();
    const { model, chat } = await this.#model(t);
    const { generateText } = await import('ai');
    const [{ toolsOf }, { planPrompt, readPlan }] = await this.#load();
    const { tools } = await toolsOf(this.#ctx, this.#store, t, cfg, t.query, noHooks, work.abort.signal);
    const files = (await this.#store.files(t.id)).map((f) => f.name);
    const done = planOf(t).filter((s) => s.status === 'done');
    const m0 = performance.now();
    const r = await generateText({
      model: chat,
      system: planPrompt(tools, cfg.experts, files),
      messages: [{ role: 'user', content: followUps(t.query, cfg.notes, done) }],
      temperature: 0,
      maxRetries: 1,
      abortSignal: work.abort.signal,
    });
    work.clock.model += performance.now() - m0;
    const steps = readPlan(r.text, cfg.experts, t.query, () => this.#store.newId());
    const spent = await this.#spent(
      t,
      model.model_id,
      r.usage?.inputTokens ?? 0,
      r.usage?.outputTokens ?? 0,
      0,
      Date.now() - started,
    );
    const now = await this.#store.task(t.id);
    if (now.status !== 'planning') return false;
    const plan = [...done, ...steps];
    await this.say(t.id, {
      kind: 'plan',
      content: steps.map((s, i) => `${done.length + i + 1}. ${s.title}`).join('\n'),
    });
    const confirm = cfg.task_run_mode === 'confirm_plan';
    await this.set(now, {
      ...spent,
      plan: JSON.stringify(plan),
      status: confirm ? 'waiting_plan' : 'running',
      // The configuration as it is now (limits may have changed while the model planned), its notes read.
      config: JSON.stringify({ ...configOf(now), notes: [] }),
    });
    return !confirm;
  }

  /** Carries out the next step (or writes the summary after the last); true when there is more to do. */
  async #next(t: TaskRow, work: Work): Promise<boolean> {
    const plan = planOf(t);
    const index = plan.findIndex((s) => s.status !== 'done' && s.status !== 'skipped');
    if (index < 0) {
      await this.#summarize(t, work);
      return false;
    }
    work.clock.kind = 'step';
    work.clock.step_index = index;
    const limit = this.limitReached(t);
    if (limit) {
      await this.end(t, 'stopped', limit.code, limit.why);
      return false;
    }
    const cfg = configOf(t);
    const step = plan[index];
    const expert = cfg.experts.find((e) => e.expert_id === step.expert_id);
    plan[index] = { ...step, status: 'running' };
    t = await this.set(t, { plan: JSON.stringify(plan) });
    const started = Date.now();
    const timeLeft = cfg.limits.max_minutes * 60_000 - Number(t.run_ms);
    const timer = setTimeout(() => work.abort.abort(new Error('time')), Math.max(1, timeLeft));
    let asked = '';
    const hooks = {
      ask: (q: string) => void (asked = q),
      wrote: async (f: { id: string; name: string; bytes: number }) =>
        void (await this.say(t.id, {
          kind: 'file',
          step_index: index,
          content: f.name,
          file_id: f.id,
          expert: expert?.name,
        })),
    };
    let outcome: StepOutcome;
    try {
      outcome = await this.#carryOut(t, index, step, expert, hooks, work, () => asked);
    } finally {
      clearTimeout(timer);
    }
    const spent = await this.#spent(
      t,
      outcome.modelId,
      outcome.input,
      outcome.output,
      outcome.calls,
      Date.now() - started,
    );
    const now = await this.#store.task(t.id);
    const fresh = planOf(now);
    const at = fresh.findIndex((s) => s.step_id === step.step_id);
    const withStep = (s: Partial<PlanStep>) => {
      if (at >= 0) fresh[at] = { ...fresh[at], ...s };
      return JSON.stringify(fresh);
    };
    if (now.status === 'stopped') {
      await this.#store.set(t.id, { ...spent, plan: withStep({ status: 'pending' }) });
      return false;
    }
    if (outcome.error && !asked && !(work.abort.signal.reason as Error | undefined)?.message?.startsWith('time')) {
      await this.end({ ...now, ...spent }, 'failed', 'failed', {
        key: 'endFailed',
        params: { detail: outcome.error },
      });
      return false;
    }
    if (asked) {
      await this.say(t.id, { kind: 'question', step_index: index, content: asked, expert: expert?.name });
      await this.set(now, { ...spent, plan: withStep({ status: 'pending' }), status: 'waiting_user', question: asked });
      return false;
    }
    if (outcome.answer === undefined) {
      // Halted (a pause) or out of time before the step came to an answer: it is taken again on resume.
      const next = await this.set(now, { ...spent, plan: withStep({ status: 'pending' }) });
      const limit2 = this.limitReached(next);
      if (limit2 && next.status === 'running') await this.end(next, 'stopped', limit2.code, limit2.why);
      return false;
    }
    await this.say(t.id, { kind: 'answer', step_index: index, content: outcome.answer, expert: expert?.name });
    const next = await this.set(now, {
      ...spent,
      plan: withStep({ status: 'done', result: clip(outcome.answer, 4000) }),
    });
    return next.status === 'running';
  }

  async #carryOut(
    t: TaskRow,
    index: number,
    step: PlanStep,
    expert: Expert | undefined,
    hooks: { ask(q: string): void; wrote(f: { id: string; name: string; bytes: number }): Promise<void> },
    work: Work,
    asked: () => string,
  ): Promise<StepOutcome> {
    const clock = work.clock;
    const cfg = configOf(t);
    const { model, chat } = await this.#model(t, expert?.model_id);
    const { jsonSchema, streamText, tool, isStepCount } = await import('ai');
    const [{ AgentAsked, toolsOf }, { stepPrompt }] = await this.#load();
    const query = `${step.title}\n${step.detail}`;
    const kit = await toolsOf(this.#ctx, this.#store, t, cfg, query, hooks, work.abort.signal);
    const earlier = await this.#store.messages(t.id);
    const files = await this.#store.files(t.id);
    const system = stepPrompt({
      goal: t.query,
      plan: planOf(t),
      index,
      expert,
      files: files.map((f) => `${f.name} (${f.origin}, ${f.bytes} bytes)`),
      notes: cfg.notes ?? [],
      earlier: earlier.filter((m) => m.step_index === index),
      instructions: kit.instructions,
    });
    const say = (m: NewMessage) => this.say(t.id, { step_index: index, expert: expert?.name, ...m });
    const tools: ToolSet = {};
    for (const x of kit.tools)
      tools[x.name] = this.#asTool(x, say, work.abort.signal, clock, tool, jsonSchema, AgentAsked);
    const budget = cfg.limits.max_tokens - Number(t.input_tokens) - Number(t.output_tokens);
    const calls = Math.max(1, Math.min(CALLS_PER_STEP, cfg.limits.max_steps - Number(t.steps)));
    let used = 0;
    let error: string | undefined;
    const s0 = performance.now();
    const result = streamText({
      model: chat,
      system,
      messages: [{ role: 'user', content: `Carry out step ${index + 1}: ${step.title}` }],
      tools,
      stopWhen: [isStepCount(calls), () => work.halt || !!asked() || used >= budget],
      abortSignal: work.abort.signal,
      maxRetries: 1,
      onError: ({ error: e }) => void (error ??= errorText(e)),
    });
    let text = '';
    let rounds = 0;
    let input = 0;
    let output = 0;
    let lastReason = '';
    try {
      for await (const part of result.fullStream) {
        const own = performance.now();
        if (part.type === 'text-delta') {
          text += part.text;
          this.#tell(t.id, { delta: { step_index: index, text: part.text } });
        } else if (part.type === 'finish-step') {
          rounds++;
          input += part.usage.inputTokens ?? 0;
          output += part.usage.outputTokens ?? 0;
          used = input + output;
          lastReason = part.finishReason;
          // What the model said before calling tools is its thinking aloud; the last round's text is the answer.
          if (part.finishReason === 'tool-calls' && text.trim()) {
            await say({ kind: 'thought', content: text.trim() });
            text = '';
          }
        } else if (part.type === 'error') error ??= errorText(part.error);
        clock.own += performance.now() - own;
      }
    } catch (e) {
      if (!(e instanceof AgentAsked) && !work.abort.signal.aborted) error ??= errorText(e);
    }
    clock.model += performance.now() - s0 - clock.tool - clock.own;
    const finished = !work.abort.signal.aborted && !asked() && lastReason !== 'tool-calls' && !error;
    return {
      modelId: model.model_id,
      calls: rounds,
      input,
      output,
      answer: finished ? text.trim() || '(done)' : undefined,
      error: work.abort.signal.aborted ? undefined : error,
    };
  }

  #asTool(
    x: BotTool,
    say: (m: NewMessage) => Promise<MessageRow>,
    signal: AbortSignal,
    clock: Clock,
    tool: typeof import('ai').tool,
    jsonSchema: typeof import('ai').jsonSchema,
    AgentAsked: typeof import('./tools.ts').AgentAsked,
  ) {
    return tool({
      description: x.description,
      inputSchema: jsonSchema(x.parameters as never),
      execute: async (args: Record<string, unknown>, { toolCallId }: { toolCallId: string }) => {
        let at = performance.now();
        if (x.name !== 'ask_user')
          await say({ kind: 'tool_call', tool_name: x.name, call_id: toolCallId, data: asJson(args) });
        clock.own += performance.now() - at;
        at = performance.now();
        try {
          const output = await x.execute(args ?? {}, { signal });
          clock.tool += performance.now() - at;
          at = performance.now();
          await say({ kind: 'tool_result', tool_name: x.name, call_id: toolCallId, data: asJson(output) });
          clock.own += performance.now() - at;
          return output ?? null;
        } catch (e) {
          clock.tool += performance.now() - at;
          if (e instanceof AgentAsked || signal.aborted) throw e;
          at = performance.now();
          const error = errorText(e);
          await say({
            kind: 'tool_result',
            tool_name: x.name,
            call_id: toolCallId,
            data: asJson({ error }),
            is_error: true,
          });
          clock.own += performance.now() - at;
          return { error };
        }
      },
    } as never);
  }

  async #summarize(t: TaskRow, work: Work): Promise<void> {
    work.clock.kind = 'summary';
    const signal = work.abort.signal;
    const started = Date.now();
    const { model, chat } = await this.#model(t);
    const { generateText } = await import('ai');
    const [, { summaryPrompt }] = await this.#load();
    const files = (await this.#store.files(t.id)).filter((f) => f.origin === 'output').map((f) => f.name);
    const m0 = performance.now();
    const r = await generateText({
      model: chat,
      system: summaryPrompt(),
      messages: [{ role: 'user', content: summaryInput(t.query, planOf(t), files) }],
      maxRetries: 1,
      abortSignal: signal,
    });
    work.clock.model += performance.now() - m0;
    const spent = await this.#spent(
      t,
      model.model_id,
      r.usage?.inputTokens ?? 0,
      r.usage?.outputTokens ?? 0,
      0,
      Date.now() - started,
    );
    const now = await this.#store.task(t.id);
    if (now.status !== 'running') return;
    await this.say(t.id, { kind: 'summary', content: r.text.trim() });
    await this.end({ ...now, ...spent }, 'finished', 'finished', { key: 'endFinished', params: {} });
    await this.#store.set(t.id, spent);
  }
}

interface StepOutcome {
  modelId: string;
  /** Model calls made (each counts against the task's step limit). */
  calls: number;
  input: number;
  output: number;
  /** The step's answer; undefined when it did not come to one (halted, asked, failed). */
  answer?: string;
  error?: string;
}

const noHooks = { ask: () => undefined, wrote: async () => undefined };

/** The goal with what the person added since (a follow-up plans from what is done). */
function followUps(query: string, notes: string[] | undefined, done: PlanStep[]): string {
  const parts = [`Goal: ${query}`];
  if (done.length)
    parts.push(`Done so far:\n${done.map((s, i) => `${i + 1}. ${s.title}: ${clip(s.result, 500)}`).join('\n')}`);
  if (notes?.length) parts.push(`The person adds:\n${notes.map((n) => `- ${n}`).join('\n')}`);
  return parts.join('\n\n');
}

function summaryInput(query: string, plan: PlanStep[], files: string[]): string {
  return [
    `Goal: ${query}`,
    `Steps and what they came to:\n${plan.map((s, i) => `${i + 1}. ${s.title}: ${clip(s.result, 1500)}`).join('\n')}`,
    files.length ? `Files written: ${files.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
