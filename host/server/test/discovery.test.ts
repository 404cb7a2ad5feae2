import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverExtensions, type DiscoveryProblem } from '../src/discovery.ts';

// What an outside author gets wrong and is told about when the studio starts.
describe('discovering extensions', () => {
  it('warns about a client half the manifest does not name (it would never be loaded), and loads the rest', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-discovery-'));
    const ext = path.join(dir, 'half');
    mkdirSync(path.join(ext, 'dist/client'), { recursive: true });
    writeFileSync(
      path.join(ext, 'package.json'),
      JSON.stringify({ name: 'half', version: '1.0.0', tessera: { id: 'half', server: './dist/server/index.js' } }),
    );
    writeFileSync(path.join(ext, 'dist/client/remoteEntry.js'), '');
    const problems: DiscoveryProblem[] = [];
    const warnings: DiscoveryProblem[] = [];
    const found = discoverExtensions(dir, 'runtime', problems, warnings);
    expect(found.map((d) => d.pkg.id)).toEqual(['half']);
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      expect.objectContaining({
        id: 'half',
        message: expect.stringContaining('names no "client": the studio does not load it'),
      }),
    ]);
  });
});
