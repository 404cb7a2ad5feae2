// The multi-agent bot mode: agents (a persona with its model and skills, or a chat-flow) that take the conversation
// when their intent fits (a model judges) or their keywords appear (rules); the agent that took over keeps it (or
// every turn is routed again); each turn's answering agent, and why, shows among the answer's steps. An agent is run
// by the mode that answers for one (single agent, chat-flow) through the BotModes point, with its own skills.
import { defineErrorTexts, defineExtension } from '@tessera/sdk/server';
import { BotModeCode, BotModes, type BotTurnContext, type TurnResult } from '@tessera/ext-bots/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { MultiAgentSettings, matches, problemsOf, type Agent } from '../shared.ts';
import { route, type Decision } from './router.ts';
import { Holders, migrations } from './state.ts';

const texts = defineErrorTexts('bot_multi_agent', {
  noAgents: ['The bot has no agents: add one in its settings.', '智能体没有 Agent：请在设置中添加一个。'],
  modeOff: [
    'The agent {{agent}} needs the {{mode}} mode, which is off in this studio.',
    'Agent {{agent}} 需要“{{mode}}”模式，但它在此工作室中已停用。',
  ],
});

export default defineExtension({
  id: 'bot-mode-multi-agent',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const holders = new Holders(ctx);

    const runAgent = (turn: BotTurnContext, agent: Agent): Promise<TurnResult> => {
      const key = agent.kind === 'llm' ? 'single-agent' : 'chatflow';
      const mode = ctx.registry(BotModes).get(key);
      if (!mode) throw texts.error(400, 'modeOff', { agent: agent.name, mode: key });
      const settings = mode.settings.parse(
        agent.kind === 'llm'
          ? { prompt: agent.prompt, model: agent.model }
          : { workflow_id: agent.workflow_id, workflow_name: agent.workflow_name },
      );
      // The bot's skills serve every agent; an agent's own add to them (or set one differently).
      return mode.run({ ...turn, settings, skills: () => turn.skillsOf({ ...turn.config.skills, ...agent.skills }) });
    };

    ctx.register(BotModes, {
      key: 'multi-agent',
      code: BotModeCode.Multi,
      label: { 'en-US': 'Multi-agent', 'zh-CN': '多 Agent' },
      settings: MultiAgentSettings,
      problems: (s) => problemsOf(s as MultiAgentSettings),
      modelOf: (s) => {
        const v = s as MultiAgentSettings;
        return v.router.model_id || v.agents.find((a) => a.id === v.start_agent_id)?.model.model_id || undefined;
      },
      withModel: (s, m) => {
        const cur = MultiAgentSettings.parse(s ?? {});
        return {
          ...cur,
          router: { ...cur.router, model_id: cur.router.model_id || m.model_id },
          agents: cur.agents.map((a) =>
            a.id === cur.start_agent_id && !a.model.model_id
              ? { ...a, model: { ...a.model, model_id: m.model_id, model_name: m.model_name } }
              : a,
          ),
        };
      },
      describe: (s) => {
        const v = s as MultiAgentSettings;
        return {
          agents: v.agents.map((a) => ({
            agent_id: a.id,
            agent_name: a.name,
            agent_type: a.kind === 'llm' ? 1 : 2,
            intents: a.intent ? [{ intent: a.intent }] : [],
            prompt_info: { prompt: a.prompt },
            model_info: { model_id: a.model.model_id, model_name: a.model.model_name ?? '' },
            is_start: a.id === v.start_agent_id,
          })),
          jump_config: { mode: v.jump, back_keywords: v.back_keywords },
        };
      },
      async run(turn) {
        const s = turn.settings as MultiAgentSettings;
        const start = s.agents.find((a) => a.id === s.start_agent_id) ?? s.agents[0];
        if (!start) throw texts.error(400, 'noAgents');
        const heldId = await holders.get(turn.conversationId);
        const held = s.agents.find((a) => a.id === heldId) ?? start;
        const opts = {
          spaceId: turn.spaceId,
          models: ctx.optionalService(ModelsService),
          signal: turn.signal,
          recordUsage: turn.recordUsage,
        };
        let d: Decision;
        if (s.jump === 'reroute' || held.id === start.id) d = await route(s, start, held, turn.query, opts);
        else {
          const back = matches(s.back_keywords, turn.query);
          d = back
            ? await route(s, start, start, turn.query, opts)
            : { agent: held, by: 'holder', reason: 'It holds the conversation.' };
          if (back) d = { ...d, reason: `"${back}" sends the conversation back to be routed. ${d.reason}` };
        }
        // Which agent answers, and why, among the answer's steps (the debug chat shows each jump).
        const id = `handoff-${turn.chatId}`;
        turn.emit.toolCall({
          id,
          name: 'handoff',
          arguments: { from: held.name, to: d.agent.name, by: d.by, reason: d.reason },
        });
        turn.emit.toolResult({ id, name: 'handoff', output: { agent: d.agent.name, agent_id: d.agent.id } });
        await holders.set(turn.conversationId, turn.botId, d.agent.id);
        return runAgent(turn, d.agent);
      },
    });
  },
});
