// The arena page's state: the configuration, a battle under way (both answers as they stream, the vote and who was
// who), the question bank and the leaderboard.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageOf, useApi } from '@tessera/sdk/client';
import { useRef, useState } from 'react';
import {
  AddQuestion,
  BreakMessage,
  CreatePk,
  DeleteQuestion,
  GetConf,
  GetLeaderboard,
  ListBank,
  RandQuestion,
  VotePk,
  type BattleView,
} from '../shared/api.ts';

export type { BattleView, LeaderboardRow, QuestionView } from '../shared/api.ts';
export { useSpaceId } from './space.ts';

export function useConf() {
  const api = useApi();
  return useQuery({ queryKey: ['arena', 'conf'], queryFn: () => api.call(GetConf, {}), staleTime: 300_000 });
}

export interface SideState {
  text: string;
  state: 'waiting' | 'writing' | 'done' | 'failed';
  error?: string;
  latency?: number;
}
const fresh = (): SideState => ({ text: '', state: 'waiting' });

/** Which arena: the space's models or bots, or the public one (the platform's models, every space's votes). */
export interface ArenaChoice {
  pool: 'space' | 'public';
  kind: 'model' | 'bot';
}
export interface TurnState {
  question: string;
  a: SideState;
  b: SideState;
}

/** One battle at a time: start it (both answers stream in), ask follow-ups, stop it, vote on it. */
export function useBattle(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const [pk, setPk] = useState<string | null>(null);
  const [turns, setTurns] = useState<TurnState[]>([]);
  const [status, setStatus] = useState<'idle' | 'answering' | 'answered' | 'failed' | 'voted'>('idle');
  const [result, setResult] = useState<BattleView | null>(null);
  const [error, setError] = useState('');
  const current = useRef<string | null>(null);
  const patch = (side: 'a' | 'b', p: Partial<SideState>) =>
    setTurns((all) => {
      const last = all.at(-1);
      if (!last) return all;
      const s = last[side];
      return [...all.slice(0, -1), { ...last, [side]: { ...s, ...p, text: s.text + (p.text ?? '') } }];
    });

  /** Both sides answer the battle's question, or a follow-up. */
  const run = async (id: string, query?: string) => {
    setStatus('answering');
    try {
      await api.stream(
        '/api/models/chat',
        { pk_id: id, ...(query ? { query } : {}) },
        (e) => {
          if (current.current !== id) return;
          const data = JSON.parse(e.data || '{}') as {
            side: 'a' | 'b';
            text?: string;
            msg?: string;
            latency_ms?: number;
            status?: string;
          };
          if (e.event === 'delta') patch(data.side, { text: data.text, state: 'writing' });
          if (e.event === 'done') patch(data.side, { state: 'done', latency: data.latency_ms });
          if (e.event === 'error') patch(data.side, { state: 'failed', error: data.msg });
          if (e.event === 'end') setStatus(data.status === 'answered' ? 'answered' : 'failed');
        },
        { handled: () => true },
      );
    } catch (e) {
      setStatus('failed');
      setError(messageOf(e));
    }
  };
  const start = async (question: string, category: string, arena: ArenaChoice) => {
    setError('');
    setResult(null);
    setTurns([]);
    let id: string;
    try {
      id = (await api.call(CreatePk, { space_id: spaceId, question, category: category as 'general', ...arena })).pk_id;
    } catch (e) {
      setError(messageOf(e));
      return;
    }
    current.current = id;
    setPk(id);
    setTurns([{ question, a: fresh(), b: fresh() }]);
    await run(id);
  };
  const follow = async (query: string) => {
    if (!pk) return;
    setError('');
    setTurns((all) => [...all, { question: query, a: fresh(), b: fresh() }]);
    await run(pk, query);
  };
  const stop = () => pk && void api.call(BreakMessage, { pk_id: pk }).catch(() => undefined);
  const vote = useMutation({
    mutationFn: (v: { vote: 'a' | 'b' | 'tie' | 'both_bad'; tags: string[]; text: string }) =>
      api.call(VotePk, { pk_id: pk!, ...v }),
    onSuccess: (r) => {
      setResult(r.battle);
      setStatus('voted');
      void qc.invalidateQueries({ queryKey: ['arena', 'leaderboard'] });
    },
  });
  return { pk, turns, status, result, error, start, follow, stop, vote };
}

export function useBank(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['arena', 'bank', spaceId],
    queryFn: async () => (await api.call(ListBank, { space_id: spaceId })).questions,
    enabled: !!spaceId,
  });
  const refresh = () => void qc.invalidateQueries({ queryKey: ['arena', 'bank', spaceId] });
  const add = useMutation({
    mutationFn: (v: { text: string; category: string }) =>
      api.call(AddQuestion, { space_id: spaceId, text: v.text, category: v.category as 'general' }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteQuestion, { space_id: spaceId, question_id: id }),
    onSuccess: refresh,
  });
  const random = (category?: string) =>
    api.call(RandQuestion, { space_id: spaceId, category: category as 'general' | undefined });
  return { list, add, remove, random };
}

export function useLeaderboard(spaceId: string, category: string, arena: ArenaChoice) {
  const api = useApi();
  return useQuery({
    queryKey: ['arena', 'leaderboard', spaceId, category, arena.pool, arena.kind],
    queryFn: () =>
      api.call(GetLeaderboard, {
        space_id: spaceId,
        category: (category || undefined) as 'general' | undefined,
        ...arena,
      }),
    enabled: !!spaceId,
  });
}
