// The extensions' standalone pages ("tessera.webEntries" in a built-in extension's package.json: a name -> a module
// that draws the page itself), named `<extension id>--<name>` in the build (rsbuild.entries.config.ts).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..');

export interface WebEntry {
  name: string;
  file: string;
}

export function webEntries(): WebEntry[] {
  const dir = path.join(ROOT, 'extensions');
  const out: WebEntry[] = [];
  for (const folder of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const pkgFile = path.join(dir, folder, 'package.json');
    if (!existsSync(pkgFile)) continue;
    const t = (JSON.parse(readFileSync(pkgFile, 'utf8')) as { tessera?: { id?: string; webEntries?: unknown } })
      .tessera;
    if (!t?.id || !t.webEntries || typeof t.webEntries !== 'object') continue;
    for (const [name, file] of Object.entries(t.webEntries as Record<string, string>))
      out.push({ name: `${t.id}--${name}`, file: `./${path.relative(ROOT, path.join(dir, folder, file))}` });
  }
  return out;
}
