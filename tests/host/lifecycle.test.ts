import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_EXTENSIONS, getJson, startStudio, type RunningStudio } from '../helpers.ts';

let studio: RunningStudio | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

const stateOf = async (s: RunningStudio) =>
  Object.fromEntries(
    (await getJson(`${s.url}/api/extensions`)).body.data.extensions.map(
      (e: { id: string; state: string; reason?: string }) => [e.id, e],
    ),
  );

describe('extension lifecycle in the running host', () => {
  it('a dependent uses the service of the extension it requires', async () => {
    studio = await startStudio({ extensionsDir: FIXTURE_EXTENSIONS });
    expect((await getJson(`${studio.url}/api/fixture-dependent/count`)).body.data).toBe(1);
    expect((await getJson(`${studio.url}/api/fixture-dependent/count`)).body.data).toBe(2);
  });

  it('disabling an extension disables its dependents with a reason; their routes vanish', async () => {
    studio = await startStudio({ extensionsDir: FIXTURE_EXTENSIONS, env: { TESSERA_DISABLE: 'fixture-base' } });
    const s = await stateOf(studio);
    expect(s['fixture-base']).toMatchObject({ state: 'disabled', reason: 'disabled by configuration' });
    expect(s['fixture-dependent'].state).toBe('disabled');
    expect(s['fixture-dependent'].reason).toMatch(/requires 'fixture-base', which is disabled/);
    expect((await getJson(`${studio.url}/api/fixture-dependent/count`)).status).toBe(404);
    expect((await getJson(`${studio.url}/api/fixture-independent/ping`)).body.data).toBe('still here');
  });

  it('a failing extension is rolled back and reported while the host goes on', async () => {
    studio = await startStudio({ extensionsDir: FIXTURE_EXTENSIONS });
    const s = await stateOf(studio);
    expect(s['fixture-broken'].state).toBe('failed');
    expect(s['fixture-broken'].reason).toMatch(/start failed: cannot reach its upstream service/);
    expect((await getJson(`${studio.url}/api/fixture-broken/ping`)).status).toBe(404);
    expect((await getJson(`${studio.url}/api/fixture-base/ping`)).body.data).toBe('pong');
    expect((await getJson(`${studio.url}/healthz`)).body.status).toBe('ok');
  });

  it('a failing extension with the abort policy stops the start', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-cfg-'));
    const file = path.join(dir, 'tessera.config.yaml');
    writeFileSync(file, 'startup:\n  extensions:\n    fixture-broken: { onFailure: abort }\n');
    await expect(startStudio({ extensionsDir: FIXTURE_EXTENSIONS, env: { TESSERA_CONFIG: file } })).rejects.toThrow(
      /fixture-broken' start failed.*abort/,
    );
  });
});
