import { ErrorTexts, defineExtension } from '@tessera/sdk/server';
import { BotModeCode, BotModes, defineBotMode } from '@tessera/ext-bots/shared';
import { ModelsService } from '@tessera/ext-models/shared';
import { PromptsService } from '@tessera/ext-prompts/shared';
import { SingleAgentSettings } from '../shared.ts';
import { runSingleAgent } from './agent.ts';

export default defineExtension({
  id: 'bot-single-agent',
  register(ctx) {
    ctx.register(ErrorTexts, {
      key: 'bot-single-agent.noModel',
      texts: {
        'en-US': 'The bot has no model: choose one in its settings.',
        'zh-CN': '智能体没有模型：请在设置中选择一个模型。',
      },
    });
    ctx.register(ErrorTexts, {
      key: 'bot-single-agent.modelFailed',
      texts: { 'en-US': 'The model call failed: {{detail}}', 'zh-CN': '模型调用失败：{{detail}}' },
    });
    ctx.register(
      BotModes,
      defineBotMode({
        key: 'single-agent',
        code: BotModeCode.Single,
        label: { 'en-US': 'Single agent', 'zh-CN': '单 Agent' },
        settings: SingleAgentSettings,
        problems: (s) => (s.model.model_id ? [] : ['Choose a model for the bot.']),
        run: (turn, s) => runSingleAgent(turn, s, ctx.service(ModelsService), ctx.optionalService(PromptsService)),
        modelOf: (s) => s.model.model_id || undefined,
        withModel: (s, m) => {
          const cur = SingleAgentSettings.parse(s ?? {});
          return { ...cur, model: { ...cur.model, model_id: m.model_id, model_name: m.model_name } };
        },
        describe: (v) => {
          return {
            prompt_info: { prompt: v.prompt },
            model_info: { model_id: v.model.model_id, model_name: v.model.model_name ?? '' },
          };
        },
        fromOpenApi: (body, current) => {
          // A draft written before may hold what the schema refuses now: start from the defaults then.
          const was = SingleAgentSettings.safeParse(current ?? {});
          const cur = was.success ? was.data : SingleAgentSettings.parse({});
          const prompt = (body.prompt_info as { prompt?: string } | undefined)?.prompt;
          const m = body.model_info_config as
            | { model_id?: string; temperature?: number; top_p?: number; max_tokens?: number; context_round?: number }
            | undefined;
          if (prompt === undefined && !m) return undefined;
          return {
            ...cur,
            ...(prompt !== undefined ? { prompt } : {}),
            ...(m
              ? {
                  model: {
                    ...cur.model,
                    model_id: m.model_id ?? cur.model.model_id,
                    params: {
                      ...cur.model.params,
                      ...(m.temperature !== undefined ? { temperature: m.temperature } : {}),
                      ...(m.top_p !== undefined ? { top_p: m.top_p } : {}),
                      ...(m.max_tokens !== undefined ? { max_tokens: m.max_tokens } : {}),
                    },
                    context_rounds: m.context_round ?? cur.model.context_rounds,
                  },
                }
              : {}),
          };
        },
      }),
    );
  },
});
