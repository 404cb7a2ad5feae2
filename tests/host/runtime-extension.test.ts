import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleExtensionsDir, getJson, startStudio, type RunningStudio } from '../helpers.ts';

let studio: RunningStudio;
beforeAll(async () => {
  studio = await startStudio({
    extensionsDir: exampleExtensionsDir(),
    env: { TESSERA_EXT_HELLO: '{"greeting":"Bonjour"}' },
  });
});
afterAll(() => studio.close());

describe('an extension built outside the host, dropped into extensionsDir', () => {
  it('is loaded at start: its migrations ran and its API answers with its configuration', async () => {
    const greet = await getJson(`${studio.url}/api/hello/greet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ann' }),
    });
    expect(greet.body).toEqual({ code: 0, msg: '', data: { count: 1 } });
    const r = await getJson(`${studio.url}/api/hello/greeting?name=ann`);
    expect(r.body.data).toEqual({ text: 'Bonjour, ann!', count: 1 });
  });

  it('tells the web host to load its client half as a Module Federation remote, and serves it', async () => {
    const ext = (await getJson(`${studio.url}/api/extensions`)).body.data.extensions.find(
      (e: { id: string }) => e.id === 'hello',
    );
    expect(ext).toMatchObject({
      state: 'started',
      source: 'runtime',
      client: { type: 'remote', remoteName: 'tessera_ext_hello', entry: '/_extensions/hello/remoteEntry.js' },
    });
    const entry = await fetch(`${studio.url}${ext.client.entry}`);
    expect(entry.status).toBe(200);
    expect(await entry.text()).toContain('tessera_ext_hello');
    expect((await fetch(`${studio.url}/_extensions/hello/../../package.json`)).status).toBeGreaterThanOrEqual(400);
  });
});
