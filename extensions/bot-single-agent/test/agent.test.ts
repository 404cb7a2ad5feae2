import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { BotModes, type BotModeDefinition } from '@tessera/ext-bots/shared';
import { testTurn } from '@tessera/ext-bots/testing';
import { ModelsService, type Models, type ResolvedModel } from '@tessera/ext-models/shared';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { startFakeLlm, type FakeLlm } from '../../../tests/fixtures/fake-llm.ts';
import singleAgent from '../src/server/index.ts';

// The single-agent mode alone: a stand-in model registry whose model is the local fake server.
let llm: FakeLlm;
let t: ExtensionTester;
let mode: BotModeDefinition;
const recorded: unknown[] = [];

beforeAll(async () => {
  llm = await startFakeLlm();
  const provider = createOpenAICompatible({
    name: 'fake',
    baseURL: `${llm.url}/v1`,
    apiKey: 'sk-fake',
    includeUsage: true,
  });
  const models: Models = {
    get: async (_space, id) => {
      if (id !== 'm1') throw new Error(`Model ${id} is not available in this space.`);
      return {
        model_id: 'm1',
        model_name: 'fake-chat',
        default_params: { temperature: 0.5 },
        chat: async () => provider.chatModel('fake-chat'),
      } as unknown as ResolvedModel;
    },
    list: async () => [],
    defaultModel: async () => undefined,
    recordUsage: async (u) => void recorded.push(u),
    complete: async () => {
      throw new Error('not used by the agent');
    },
  };
  t = await createExtensionTester(singleAgent, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'bots' }, { id: 'models', services: [[ModelsService, models]] }],
  });
  mode = t.server.host.points.registry(BotModes).get('single-agent')!;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});
beforeEach(() => llm.reset());

const settings = (s: Record<string, unknown> = {}) =>
  mode.settings.parse({ prompt: 'You are {{role}}.', model: { model_id: 'm1', context_rounds: 1 }, ...s });

describe('the single-agent mode alone', () => {
  it('sends the rendered persona, the last rounds and the question, and streams the answer', async () => {
    llm.script({ text: 'Hello there!', chunkSize: 4, usage: { input: 7, output: 3 } });
    const r = testTurn({
      settings: settings(),
      query: 'hi',
      skills: [{ values: { role: 'a guide' }, instructions: 'Be brief.' }],
      history: [
        { role: 'user', content: 'old' },
        { role: 'assistant', content: 'older' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
      ],
    });
    const out = await mode.run(r.turn);
    expect(out.answer).toBe('Hello there!');
    expect(r.deltas.length).toBeGreaterThan(1);
    expect(llm.requests[0].body.messages).toEqual([
      { role: 'system', content: 'You are a guide.\n\nBe brief.' },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'hi' },
    ]);
    expect(llm.requests[0].body.temperature).toBe(0.5);
    expect(r.usage).toEqual([{ model_id: 'm1', input_tokens: 7, output_tokens: 3 }]);
  });

  it("calls tools for bounded rounds and gives a failing tool's error to the model", async () => {
    llm.script(
      { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] },
      { toolCalls: [{ name: 'lookup', arguments: { q: 'y' } }] },
      { text: 'never reached' },
    );
    const r = testTurn({
      settings: settings({ max_tool_rounds: 2 }),
      query: 'find',
      skills: [
        {
          tools: [
            {
              name: 'lookup',
              description: 'Looks up',
              parameters: { type: 'object', properties: { q: { type: 'string' } } },
              execute: async (args) => {
                if (args.q === 'y') throw new Error('lookup service down');
                return { found: args.q };
              },
            },
          ],
        },
      ],
    });
    await mode.run(r.turn);
    expect(r.calls.map((c) => c.arguments)).toEqual([{ q: 'x' }, { q: 'y' }]);
    expect(r.results).toEqual([
      { id: expect.any(String), name: 'lookup', output: { found: 'x' } },
      { id: expect.any(String), name: 'lookup', error: 'lookup service down' },
    ]);
    expect(llm.requests).toHaveLength(2); // two rounds, then it stops
    expect(llm.requests[1].body.messages.at(-1).content).toMatch(/found/);
  });

  it('fails clearly without a model, and aborts the model request when cancelled', async () => {
    await expect(mode.run(testTurn({ settings: settings({ model: {} }), query: 'x' }).turn)).rejects.toThrow(
      /no model/,
    );
    expect(mode.problems!(settings({ model: {} }))).toEqual(['Choose a model for the bot.']);
    llm.script({ text: 'word '.repeat(300), chunkSize: 5, chunkDelayMs: 10 });
    const r = testTurn({ settings: settings(), query: 'long' });
    const run = mode.run(r.turn);
    await expect.poll(() => r.deltas.length).toBeGreaterThan(2);
    r.controller.abort();
    await expect(run).rejects.toThrow();
    await expect.poll(() => llm.aborted).toBe(1);
  });

  it("reads and writes the open API's bot fields", () => {
    const s = mode.fromOpenApi!(
      { prompt_info: { prompt: 'P' }, model_info_config: { model_id: 'm1', temperature: 0.1, context_round: 3 } },
      {},
    );
    expect(s).toMatchObject({
      prompt: 'P',
      model: { model_id: 'm1', params: { temperature: 0.1 }, context_rounds: 3 },
    });
    expect(mode.describe!(settings())).toMatchObject({
      prompt_info: { prompt: 'You are {{role}}.' },
      model_info: { model_id: 'm1' },
    });
  });
});
