// defineBotMode: a mode's hooks take its settings as its schema gives them, and settings the schema refuses reach
// no hook unchecked.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineBotMode, type BotTurnContext } from '../src/shared/index.ts';

const Settings = z.object({ model_id: z.string().default(''), prompt: z.string().max(10).default('') });

const mode = defineBotMode({
  key: 'echo',
  code: 99,
  label: { 'en-US': 'Echo', 'zh-CN': '回声' },
  settings: Settings,
  problems: (s) => (s.model_id ? [] : ['Choose a model.']),
  modelOf: (s) => s.model_id || undefined,
  describe: (s) => ({ prompt_info: { prompt: s.prompt } }),
  run: async (_turn, s) => ({ answer: `${s.model_id}:${s.prompt}` }),
});

describe('defineBotMode', () => {
  it('hands each hook the settings parsed with the schema (defaults filled in)', async () => {
    expect(mode.problems?.({})).toEqual(['Choose a model.']);
    expect(mode.problems?.({ model_id: 'm1' })).toEqual([]);
    expect(mode.modelOf?.({ model_id: 'm1' })).toBe('m1');
    expect(mode.describe?.({ prompt: 'hi' })).toEqual({ prompt_info: { prompt: 'hi' } });
    const turn = { settings: { model_id: 'm1' } } as unknown as BotTurnContext;
    expect(await mode.run(turn)).toEqual({ answer: 'm1:' });
  });

  it('gives settings the schema refuses as a problem, no model, and the schema error to run', async () => {
    const bad = { model_id: 'm1', prompt: 'longer than ten' };
    expect(mode.problems?.(bad)).toEqual([expect.stringMatching(/10/)]);
    expect(mode.modelOf?.(bad)).toBeUndefined();
    await expect(mode.run({ settings: bad } as unknown as BotTurnContext)).rejects.toThrow(/10/);
  });
});
