// Knowledge as a bot skill: before each answer the bot looks the user's message up in its knowledge bases
// and gives the model what it found (auto), or the model looks up with a tool when it decides to. Either
// way the slices show in the answer's steps with their scores.
import { defineExtension } from '@tessera/sdk/server';
import { BotSkills } from '@tessera/ext-bots/shared';
import { KnowledgeService, type RetrievedSlice } from '@tessera/ext-knowledge/shared';
import { KnowledgeSkillSettings } from '../shared.ts';

const cite = (slices: RetrievedSlice[]) =>
  slices.map((s, i) => `[${i + 1}] (${s.document_name}${s.url ? `, ${s.url}` : ''})\n${s.content}`).join('\n\n');
const step = (slices: RetrievedSlice[], mode: string) => ({
  mode,
  slices: slices.map((s) => ({
    document_name: s.document_name,
    score: s.score,
    content: s.content.slice(0, 500),
    ...(s.url ? { url: s.url } : {}),
  })),
});

export default defineExtension({
  id: 'bot-skill-knowledge',
  register(ctx) {
    const knowledge = () => ctx.service(KnowledgeService);
    ctx.register(BotSkills, {
      key: 'knowledge',
      label: { 'en-US': 'Knowledge', 'zh-CN': '知识库' },
      settings: KnowledgeSkillSettings,
      async contribute(turn) {
        const s = turn.settings as KnowledgeSkillSettings;
        const ids: string[] = [];
        for (const d of s.datasets) {
          const info = await knowledge().dataset(d.dataset_id);
          if (info && info.space_id === turn.spaceId) ids.push(info.dataset_id);
          else ctx.logger.warn(`bot ${turn.botId}: its knowledge base ${d.dataset_id} is gone; it is left out`);
        }
        if (!ids.length) return {};
        const search = (query: string, signal: AbortSignal) =>
          knowledge().retrieve({
            spaceId: turn.spaceId,
            datasetIds: ids,
            query,
            topK: s.top_k,
            minScore: s.min_score,
            searchType: s.search_type,
            rerankModelId: s.rerank_model_id || undefined,
            signal,
          });
        const cites = 'Cite the numbers [n] of the passages you use.';
        if (s.recall === 'tool') {
          return {
            instructions: `You have knowledge bases; look things up in them with the search_knowledge tool before answering questions they may cover. ${cites}`,
            tools: [
              {
                name: 'search_knowledge',
                description: 'Searches the knowledge bases and answers the most relevant passages, numbered.',
                parameters: {
                  type: 'object',
                  properties: {
                    query: { type: 'string', description: 'What to look for, in the words of the documents.' },
                  },
                  required: ['query'],
                  additionalProperties: false,
                },
                async execute(args, call) {
                  const r = await search(String(args.query ?? ''), call.signal);
                  return r.slices.length
                    ? { passages: cite(r.slices), ...step(r.slices, r.mode) }
                    : { passages: 'Nothing relevant was found.' };
                },
              },
            ],
          };
        }
        const r = await search(turn.query, turn.signal);
        const found = r.slices.length
          ? `Passages from the knowledge bases that may answer the user's message (numbered):\n\n${cite(r.slices)}\n\nAnswer from these passages where they apply. ${cites}`
          : s.no_recall_reply
            ? "Nothing in the knowledge bases answers the user's message: say that you do not know, rather than guessing."
            : undefined;
        return {
          instructions: found,
          steps: [{ name: 'knowledge_recall', arguments: { query: turn.query }, result: step(r.slices, r.mode) }],
        };
      },
      async describe(settings) {
        const s = KnowledgeSkillSettings.parse(settings);
        return {
          knowledge: {
            dataset_ids: s.datasets.map((d) => d.dataset_id),
            auto_call: s.recall === 'auto',
            search_strategy: s.search_type,
          },
        };
      },
      fromOpenApi(body, current) {
        const ids = (body as { knowledge?: { dataset_ids?: unknown } }).knowledge?.dataset_ids;
        if (!Array.isArray(ids)) return undefined;
        const cur = KnowledgeSkillSettings.parse(current ?? {});
        return { ...cur, datasets: ids.map((id) => ({ dataset_id: String(id) })) };
      },
    });
  },
});
