// The multi-agent bot mode: agents (a persona with its model and skills, a chat-flow, a workflow or another published
// bot) that take the conversation when their intent fits (a model judges) or their keywords appear (rules); the agent
// that took over keeps it, every turn is routed again from the start, or from the agent holding it; agents with a
// global jump are judged on every turn. Each turn's answering agent is on the answer (meta_data) and, with why, among
// its steps.
import { defineExtension } from '@tessera/sdk/server';
import { BotModeCode, BotModes, defineBotMode } from '@tessera/ext-bots/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { MultiAgentSettings, linksOf, problemsOf, type Agent } from '../shared.ts';
import type { AgentRunner } from './agents.ts';
import { Holders, migrations } from './state.ts';
import { texts } from './texts.ts';

/** Coze's agent types: 1 a persona with its model, 2 a flow (chat-flow or workflow), 4 another bot. */
const AGENT_TYPE: Record<Agent['kind'], number> = { llm: 1, chatflow: 2, workflow: 2, bot: 4 };

export default defineExtension({
  id: 'bot-mode-multi-agent',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const holders = ctx.resolve(Holders);
    // The routing and the agents' runner load with the first turn.
    let agents: AgentRunner | undefined;
    const turnModules = async () => {
      const [{ decide }, { AgentRunner }] = await Promise.all([import('./decide.ts'), import('./agents.ts')]);
      agents ??= ctx.resolve(AgentRunner);
      return { decide, agents };
    };

    ctx.register(
      BotModes,
      defineBotMode({
        key: 'multi-agent',
        code: BotModeCode.Multi,
        label: { 'en-US': 'Multi-agent', 'zh-CN': '多 Agent' },
        settings: MultiAgentSettings,
        problems: (s) => problemsOf(s),
        modelOf: (v) => {
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
        describe: (v) => {
          return {
            agents: v.agents.map((a) => ({
              agent_id: a.id,
              agent_name: a.name,
              agent_type: AGENT_TYPE[a.kind],
              intents: a.intent ? [{ intent: a.intent }] : [],
              prompt_info: { prompt: a.prompt },
              model_info: { model_id: a.model.model_id, model_name: a.model.model_name ?? '' },
              ...(a.kind === 'bot' ? { reference_id: a.bot_id } : {}),
              ...(a.kind === 'chatflow' || a.kind === 'workflow'
                ? { workflow_info_list: [{ id: a.workflow_id, name: a.workflow_name ?? '' }] }
                : {}),
              next_agent_ids: linksOf(v, a).map((n) => n.id),
              is_start: a.id === v.start_agent_id,
              is_global: a.global_jump,
              position: a.position,
              suggest_reply_info: { reply_mode: a.suggest_reply.mode, customized_prompt: a.suggest_reply.prompt },
              hook_info: {
                pre_agent_hook: a.hooks.before
                  ? [{ workflow_id: a.hooks.before.workflow_id, strong_dep: a.hooks.before.strict }]
                  : [],
                post_agent_hook: a.hooks.after
                  ? [{ workflow_id: a.hooks.after.workflow_id, strong_dep: a.hooks.after.strict }]
                  : [],
              },
            })),
            jump_config: { mode: v.jump, back_keywords: v.back_keywords },
          };
        },
        async run(turn, s) {
          const start = s.agents.find((a) => a.id === s.start_agent_id) ?? s.agents[0];
          if (!start) throw texts.error(400, 'noAgents');
          const { decide, agents } = await turnModules();
          const heldId = await holders.get(turn.conversationId);
          const held = s.agents.find((a) => a.id === heldId) ?? start;
          const d = await decide(s, start, held, turn.query, {
            spaceId: turn.spaceId,
            models: ctx.optionalService(ModelsService),
            signal: turn.signal,
            language: turn.language,
            recordUsage: turn.recordUsage,
          });
          // Which agent answers, and why, among the answer's steps (the debug chat shows each jump).
          const id = `handoff-${turn.chatId}`;
          turn.emit.toolCall({
            id,
            name: 'handoff',
            arguments: { from: held.name, to: d.agent.name, by: d.by, reason: d.reason },
          });
          turn.emit.toolResult({ id, name: 'handoff', output: { agent: d.agent.name, agent_id: d.agent.id } });
          await holders.set(turn.conversationId, turn.botId, d.agent.id);
          return agents.run(turn, d.agent);
        },
      }),
    );
  },
});
