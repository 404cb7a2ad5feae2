// The built files of extensions' standalone pages (WebEntriesService), from the manifest the entries' build writes
// (rsbuild.entries.config.ts): entry `<extension id>--<name>` -> its initial scripts and style sheets. Read once, when
// first asked.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { WebEntries, WebEntryAssets } from '@tessera/sdk/server';

interface Manifest {
  entries?: Record<string, { initial?: { js?: string[]; css?: string[] } }>;
}

export function webEntriesOf(dir: string): WebEntries {
  let entries: Map<string, WebEntryAssets> | undefined;
  const load = () => {
    const file = path.join(dir, 'manifest.json');
    const m: Manifest = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : {};
    return new Map(
      Object.entries(m.entries ?? {}).map(([name, e]) => [
        name,
        { js: e.initial?.js ?? [], css: e.initial?.css ?? [] },
      ]),
    );
  };
  return {
    assets(extensionId, name) {
      entries ??= load();
      return entries.get(`${extensionId}--${name}`);
    },
  };
}
