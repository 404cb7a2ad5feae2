import { describe, expect, it } from 'vitest';
import { testTurn } from '@tessera/ext-bots/testing';
import { MultiAgentSettings, linksOf, matches, problemsOf } from '../src/shared.ts';
import { decide } from '../src/server/decide.ts';
import { readRouting } from '../src/server/router.ts';

// The mode's decisions alone: keywords and patterns, the routing model's answer as it may come, what blocks publishing.
const settings = MultiAgentSettings.parse({
  agents: [
    { id: 'desk', name: 'Desk', model: { model_id: 'm' } },
    { id: 'orders', name: 'Orders', keywords: ['refund', '/order #\\d+/i'], model: { model_id: 'm' } },
  ],
  start_agent_id: 'desk',
  router: { mode: 'rules' },
});

describe('the multi-agent mode alone', () => {
  it('matches words case-insensitively and /patterns/ with their flags', () => {
    expect(matches(['refund'], 'A REFUND please')).toBe('refund');
    expect(matches(['/order #\\d+/i'], 'ORDER #12')).toBe('/order #\\d+/i');
    expect(matches(['/order #\\d+/'], 'order #x')).toBeUndefined();
    expect(matches(['/([/'], 'anything')).toBeUndefined();
  });

  it('reads a routing answer with or without a code fence, and nothing from prose', () => {
    expect(readRouting('```json\n{"agent":"orders","reason":"refund"}\n```')).toEqual({
      agent: 'orders',
      reason: 'refund',
    });
    expect(readRouting('The orders agent.')).toEqual({});
    expect(readRouting('{"agent": 3}')).toEqual({ agent: undefined, reason: undefined });
  });

  it('routes by rules without a model (no model call; ./tessera bench chat times it)', async () => {
    const { turn } = testTurn({ settings, query: 'refund' });
    const [desk] = settings.agents;
    const opts = { spaceId: 's', signal: turn.signal, recordUsage: turn.recordUsage };
    const d = await decide(settings, desk, desk, 'I want a refund', opts);
    expect(d).toMatchObject({ by: 'rules', agent: { id: 'orders' } });
    expect((await decide(settings, desk, desk, 'hello', opts)).agent.id).toBe('desk');
    // The reasons in the reader's language.
    expect((await decide(settings, desk, desk, 'hello', { ...opts, language: 'zh-CN' })).reason).toBe(
      '消息中没有任何 Agent 的关键词。',
    );
  });

  it('follows the jump lines from the agent holding the conversation, and global jumps from anywhere', async () => {
    const s = MultiAgentSettings.parse({
      agents: [
        { id: 'desk', name: 'Desk', links: ['sales'] },
        { id: 'sales', name: 'Sales', keywords: ['buy'], links: ['billing'] },
        { id: 'billing', name: 'Billing', keywords: ['invoice'] },
        { id: 'human', name: 'Human', keywords: ['agent please'], global_jump: true },
      ],
      start_agent_id: 'desk',
      router: { mode: 'rules' },
      jump: 'current',
    });
    const { turn } = testTurn({ settings: s, query: '' });
    const opts = { spaceId: 's', signal: turn.signal, recordUsage: turn.recordUsage };
    const [desk, sales, billing] = s.agents;
    expect(linksOf(s, desk).map((a) => a.id)).toEqual(['sales']);
    // The desk does not hand to billing (no line); sales does.
    expect((await decide(s, desk, desk, 'an invoice', opts)).agent.id).toBe('desk');
    expect((await decide(s, desk, sales, 'an invoice', opts)).agent.id).toBe('billing');
    // Nothing fits: the holder keeps it (current).
    expect((await decide(s, desk, billing, 'thanks', opts)).agent.id).toBe('billing');
    // A global jump is a candidate from anywhere.
    expect((await decide(s, desk, billing, 'agent please', opts)).agent.id).toBe('human');
    // Keep: the holder answers, except for a global jump.
    const keep = { ...s, jump: 'keep' as const };
    expect(await decide(keep, desk, sales, 'an invoice', opts)).toMatchObject({ by: 'holder', agent: { id: 'sales' } });
    const g = await decide(keep, desk, sales, 'agent please', opts);
    expect(g).toMatchObject({ by: 'rules', agent: { id: 'human' } });
    expect(g.reason).toMatch(/global jump/);
  });

  it('names what keeps it from being published', () => {
    const s = MultiAgentSettings.parse({
      agents: [
        { id: 'desk', name: 'Desk' },
        { id: 'desk', name: 'Twin', keywords: ['/(/'] },
      ],
      start_agent_id: 'nobody',
      router: { mode: 'rules' },
    });
    expect(problemsOf(s)).toEqual(
      expect.arrayContaining([
        'Choose the start agent.',
        'Two agents have the id desk.',
        'Choose a model for the agent Desk.',
        expect.stringMatching(/pattern \/\(\/ of the agent Twin/),
      ]),
    );
    expect(problemsOf(settings)).toEqual([]);
  });
});
