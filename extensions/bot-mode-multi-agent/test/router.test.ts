import { describe, expect, it } from 'vitest';
import { testTurn } from '@tessera/ext-bots/testing';
import { MultiAgentSettings, matches, problemsOf } from '../src/shared.ts';
import { readRouting, route } from '../src/server/router.ts';

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
    const d = await route(settings, desk, desk, 'I want a refund', {
      spaceId: 's',
      signal: turn.signal,
      recordUsage: turn.recordUsage,
    });
    expect(d).toMatchObject({ by: 'rules', agent: { id: 'orders' } });
    expect(
      (await route(settings, desk, desk, 'hello', { spaceId: 's', signal: turn.signal, recordUsage: turn.recordUsage }))
        .agent.id,
    ).toBe('desk');
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
