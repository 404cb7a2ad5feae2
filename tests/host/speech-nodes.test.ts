import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Agent } from '../agent.ts';
import { addFakeModel, startFakeLlm, type FakeLlm } from '../fixtures/fake-llm.ts';
import { startStudio, type RunningStudio } from '../helpers.ts';
import { link, node, ref } from '../workflow-kit.ts';

// The speech nodes in a workflow with the real parts: text spoken by a speech model of the space into a file of the
// space, that file heard by its transcription model (the fake OpenAI-compatible server behind both); a node without
// a transcription model fails with what to add.
let studio: RunningStudio;
let llm: FakeLlm;
let owner: Agent;
let space: string;

const canvas = (voice_id: string) => ({
  nodes: [
    node('start', '1', { title: 'Start', outputs: [{ name: 'line', type: 'string' }] }),
    node('speak', '70', {
      title: 'Speak',
      inputs: [ref('text', 'start', ['line'])],
      settings: { voice_id, format: 'wav', speed: 1 },
    }),
    node('listen', '71', { title: 'Listen', inputs: [ref('audio', 'speak', ['file_id'])], settings: {} }),
    node('end', '2', {
      title: 'End',
      inputs: [ref('heard', 'listen', ['text']), ref('audio', 'speak', ['audio']), ref('file', 'speak', ['file_id'])],
    }),
  ],
  links: [link('start', 'speak'), link('speak', 'listen'), link('listen', 'end')],
});

beforeAll(async () => {
  llm = await startFakeLlm();
  studio = await startStudio();
  owner = (await signUp(studio.url, 'speech-owner')).agent;
  space = (await owner.post('/api/space/create', { name: 'Speech' })).space_id;
});
afterAll(async () => {
  await studio?.close();
  await llm?.close();
});

describe('speech nodes', () => {
  it('speak a text into a file of the space and hear it back', async () => {
    const tts = await addFakeModel(owner, llm.url, { model: 'tts-1', kind: 'speech' });
    const { workflow_id } = await owner.post('/api/workflow_api/create', { space_id: space, name: 'Say and hear' });
    await owner.post('/api/workflow_api/save', { space_id: space, workflow_id, schema: canvas(`models:${tts}:alloy`) });
    const run = (line: string) =>
      owner.post('/api/workflow_api/test_run', { space_id: space, workflow_id, input: { line }, run_mode: 0 });
    // No transcription model yet: the Listen node says what to add.
    const first = await run('Good morning');
    expect(first.execute_status).not.toBe(2);
    expect(first.reason).toMatch(/needs a transcription model/);

    await addFakeModel(owner, llm.url, { model: 'whisper-1', kind: 'transcription' });
    const r = await run('Good morning, everyone');
    expect(r.execute_status, r.reason).toBe(2);
    const out = JSON.parse(r.output);
    expect(out.heard).toMatch(/^heard \d+ bytes$/);
    expect(out.audio).toMatch(/^http/);
    // The audio is a file of the space: a WAV of the spoken line (the fake gives 50 ms a character).
    const file = Buffer.from(await (await fetch(out.audio)).arrayBuffer());
    expect(file.toString('ascii', 0, 4)).toBe('RIFF');
    const seconds = file.readUInt32LE(40) / 2 / file.readUInt32LE(24);
    expect(seconds).toBeCloseTo('Good morning, everyone'.length * 0.05, 1);
    expect(llm.requests.filter((q) => q.path.endsWith('/audio/speech')).at(-1)?.body).toMatchObject({
      input: 'Good morning, everyone',
      response_format: 'wav',
    });
  });
});
