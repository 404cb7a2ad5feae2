// Runs the agent that answers a turn: through the mode that answers for one (a persona with its model: single-agent;
// a chat-flow), a workflow's output, or another published bot of the space as it is published; with the workflows
// called before and after it (hooks) and its own suggested replies.
import { describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { BotModes, BotsService, type BotTurnContext, type TurnResult } from '@tessera/ext-bots/shared';
import { WorkflowRunnerService, type WorkflowRunResult } from '@tessera/workflow-sdk';
import type { Agent, Hook } from '../shared.ts';
import { texts } from './texts.ts';
import { ServerContextToken } from '@tessera/sdk/server';

/** The answer of a run whose End returned variables: one text field as it is, else the JSON. */
function answerOf(output: Record<string, unknown> | undefined): string {
  if (!output) return '';
  const values = Object.values(output);
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  return JSON.stringify(output);
}

export class AgentRunner {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }

  /** The agent answers the turn (its hooks around it); the result carries its suggested replies. */
  async run(turn: BotTurnContext, agent: Agent): Promise<TurnResult> {
    turn.emit.meta?.({ agent_id: agent.id, agent_name: agent.name });
    let query = turn.query;
    if (agent.hooks.before) {
      const out = await this.#hook(turn, agent, 'before', agent.hooks.before, { query });
      if (typeof out?.query === 'string' && out.query.trim()) query = out.query;
      if (typeof out?.answer === 'string' && out.answer) {
        turn.emit.delta(out.answer);
        return { answer: out.answer, suggest: this.#suggest(agent) };
      }
    }
    const result = await this.#answer({ ...turn, query }, agent);
    if (agent.hooks.after)
      await this.#hook(turn, agent, 'after', agent.hooks.after, { query, answer: result.answer ?? '' });
    return { ...result, suggest: result.suggest ?? this.#suggest(agent) };
  }

  #suggest(agent: Agent): TurnResult['suggest'] {
    const r = agent.suggest_reply;
    if (r.mode === 'inherit') return undefined;
    return { mode: r.mode, prompt: r.prompt, model_id: agent.kind === 'llm' ? agent.model.model_id : undefined };
  }

  #mode(key: string, agent: Agent) {
    const mode = this.#ctx.registry(BotModes).get(key);
    if (!mode) throw texts.error(400, 'modeOff', { agent: agent.name, mode: key });
    return mode;
  }

  async #answer(turn: BotTurnContext, agent: Agent): Promise<TurnResult> {
    switch (agent.kind) {
      case 'llm':
      case 'chatflow': {
        const key = agent.kind === 'llm' ? 'single-agent' : 'chatflow';
        const mode = this.#mode(key, agent);
        const settings = mode.settings.parse(
          agent.kind === 'llm'
            ? { prompt: agent.prompt, model: agent.model }
            : { workflow_id: agent.workflow_id, workflow_name: agent.workflow_name },
        );
        // The bot's skills serve every agent; an agent's own add to them (or set one differently).
        return mode.run({ ...turn, settings, skills: () => turn.skillsOf({ ...turn.config.skills, ...agent.skills }) });
      }
      case 'workflow':
        return this.#workflow(turn, agent);
      case 'bot':
        return this.#bot(turn, agent);
    }
  }

  /** A workflow answers: the message goes to its first text input; its streamed messages or output are the answer. */
  async #workflow(turn: BotTurnContext, agent: Agent): Promise<TurnResult> {
    const runner = this.#runner(agent);
    const info = await runner.info(agent.workflow_id, turn.spaceId);
    if (turn.version !== null && !info.latest_version)
      throw texts.error(400, 'unpublishedFlow', { agent: agent.name, name: info.name });
    const field = info.inputs.find((f) => f.type === 'string')?.name ?? 'input';
    let streamed = '';
    const r = await runner.run({
      spaceId: turn.spaceId,
      userId: turn.userId,
      workflowId: info.workflow_id,
      version: info.latest_version ? undefined : 'draft',
      input: { [field]: turn.query },
      signal: turn.signal,
      botId: turn.botId,
      connectorId: turn.connectorId,
      connectorUid: turn.endUserId,
      onMessage: (m) => {
        streamed += m.content;
        turn.emit.delta(m.content);
      },
    });
    this.#checkRun(r, agent, info.name);
    const answer = streamed || answerOf(r.output);
    if (!streamed && answer) turn.emit.delta(answer);
    return { answer, usage: r.usage };
  }

  /** Another published bot of the space answers as it is published (its mode, settings and skills). */
  async #bot(turn: BotTurnContext, agent: Agent): Promise<TurnResult> {
    const bots = this.#ctx.service(BotsService);
    const meta = await bots.get(agent.bot_id);
    if (!meta || meta.space_id !== turn.spaceId) throw texts.error(400, 'noBot', { agent: agent.name });
    const pub = await bots.publishedConfig(agent.bot_id);
    if (!pub) throw texts.error(400, 'unpublishedBot', { agent: agent.name, name: meta.name });
    // A bot of several agents answering for an agent would route again (and could come back here).
    if (pub.config.mode === 'multi-agent') throw texts.error(400, 'nestedBot', { agent: agent.name, name: meta.name });
    const mode = this.#mode(pub.config.mode, agent);
    const result = await mode.run({
      ...turn,
      settings: mode.settings.parse(pub.config.settings),
      config: pub.config,
      skills: () => turn.skillsOf(pub.config.skills),
    });
    const own = pub.config.suggest_reply;
    const modelId = mode.modelOf?.(mode.settings.parse(pub.config.settings));
    return agent.suggest_reply.mode === 'inherit' && own.mode !== 'off'
      ? { ...result, suggest: { mode: own.mode, prompt: own.prompt, model_id: modelId } }
      : result;
  }

  #runner(agent: Agent) {
    const runner = this.#ctx.optionalService(WorkflowRunnerService);
    if (!runner) throw texts.error(400, 'modeOff', { agent: agent.name, mode: 'workflow' });
    return runner;
  }

  #checkRun(r: WorkflowRunResult, agent: Agent, name: string) {
    if (r.status === 'cancel') throw new Error('cancelled');
    if (r.status === 'interrupted') throw texts.error(400, 'asks', { agent: agent.name, name });
    if (r.status !== 'success')
      throw texts.error(400, 'flowFailed', { agent: agent.name, name, detail: r.error ?? '' });
  }

  /** Calls a hook's workflow; its result shows among the answer's steps. A failing strict hook fails the turn. */
  async #hook(
    turn: BotTurnContext,
    agent: Agent,
    when: 'before' | 'after',
    hook: Hook,
    values: { query: string; answer?: string },
  ): Promise<Record<string, unknown> | undefined> {
    const id = `hook-${when}-${turn.chatId}`;
    const name = `hook_${when}`;
    turn.emit.toolCall({
      id,
      name,
      arguments: { agent: agent.name, workflow: hook.workflow_name ?? hook.workflow_id },
    });
    try {
      const runner = this.#runner(agent);
      const r = await runner.run({
        spaceId: turn.spaceId,
        userId: turn.userId,
        workflowId: hook.workflow_id,
        version: turn.version === null ? 'draft' : undefined,
        input: {
          ...values,
          agent: agent.name,
          agent_id: agent.id,
          conversation_id: turn.conversationId,
          bot_id: turn.botId,
        },
        signal: turn.signal,
        botId: turn.botId,
        connectorId: turn.connectorId,
        connectorUid: turn.endUserId,
      });
      this.#checkRun(r, agent, hook.workflow_name ?? hook.workflow_id);
      turn.emit.toolResult({ id, name, output: r.output ?? {} });
      return r.output;
    } catch (e) {
      if (turn.signal.aborted) throw e;
      turn.emit.toolResult({ id, name, error: describeError(e) });
      if (hook.strict) throw e;
      return undefined;
    }
  }
}
