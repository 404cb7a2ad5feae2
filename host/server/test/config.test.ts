import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

function withFile(text: string, name = 'tessera.config.yaml') {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-cfg-'));
  writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('configuration', () => {
  it('has embedded defaults: port 3000, SQLite under ./data, loopback only', () => {
    const c = loadConfig({ root: '/srv/t', env: {} });
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/srv/t/data',
      databaseUrl: undefined,
      allowPrivateNetwork: false,
      extensionsDir: '/srv/t/extensions.d',
    });
  });

  it('reads extensions Backstage-style from tessera.config.yaml; the environment overrides', () => {
    const root = withFile(`
port: 4000
extensions:
  - workflow
  - billing: false
  - marketplace: { config: { featured: 3 } }
startup:
  default: { onFailure: continue, timeoutMs: 5000 }
  extensions:
    identity: { onFailure: abort }
`);
    const c = loadConfig({
      root,
      env: { TESSERA_PORT: '4100', TESSERA_DISABLE: 'workflow', TESSERA_EXT_MARKET_PLACE: '{"x":1}' },
    });
    expect(c.port).toBe(4100);
    expect(c.extensions.billing.enabled).toBe(false);
    expect(c.extensions.workflow.enabled).toBe(false);
    expect(c.extensions.marketplace).toMatchObject({ enabled: true, config: { featured: 3 } });
    expect(c.extensions['market-place'].config).toEqual({ x: 1 });
    expect(c.extensions.identity.onFailure).toBe('abort');
    expect(c.startupDefault.timeoutMs).toBe(5000);
  });

  it('command-line values win over everything', () => {
    const c = loadConfig({
      root: '/srv/t',
      env: { TESSERA_PORT: '4100' },
      overrides: { port: 5000, dataDir: '/var/t' },
    });
    expect(c.port).toBe(5000);
    expect(c.dataDir).toBe('/var/t');
  });

  it('names the bad key of an invalid file', () => {
    const root = withFile('port: "eighty"\nunknownKey: 1\n');
    expect(() => loadConfig({ root, env: {} })).toThrow(ConfigError);
    expect(() => loadConfig({ root, env: {} })).toThrow(/port: .*unknownKey|port/);
    expect(() => loadConfig({ root: withFile('port: [', 'tessera.config.yaml'), env: {} })).toThrow(/not valid YAML/);
    expect(() => loadConfig({ root: '/srv/t', env: { TESSERA_PORT: 'abc' } })).toThrow(
      /TESSERA_PORT must be a port number/,
    );
  });
});
