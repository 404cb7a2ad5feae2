import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { ExtensionCandidate, ExtensionDefinition } from '@tessera/core';
import type { ServerContext } from '@tessera/sdk/server';

/** The "tessera" field of an extension's package.json: its data manifest, read before any code runs. */
export const PackageManifestSchema = z.object({
  id: z.string(),
  requires: z.array(z.string()).default([]),
  optional: z.array(z.string()).default([]),
  description: z.string().optional(),
  /** Server half: a module whose default export is defineExtension(...) from @tessera/sdk/server. */
  server: z.string().optional(),
  /** Client half: a module (built-in) or a Module Federation remote entry (runtime). */
  client: z.string().optional(),
  /** Module Federation remote name of a runtime-loaded client half (default: tessera_ext_<id>). */
  remoteName: z.string().optional(),
});
export type PackageManifest = z.output<typeof PackageManifestSchema>;

export interface DiscoveredExtension {
  candidate: ExtensionCandidate<ServerContext>;
  pkg: PackageManifest;
  dir: string;
}

export interface DiscoveryProblem {
  dir: string;
  message: string;
}

/** Lists extensions from a folder of packages (built-in extensions/ or the runtime extensionsDir). */
export function discoverExtensions(dir: string, source: 'builtin' | 'runtime', problems: DiscoveryProblem[] = []): DiscoveredExtension[] {
  if (!existsSync(dir)) return [];
  const found: DiscoveredExtension[] = [];
  for (const name of readdirSync(dir).sort()) {
    const extDir = path.join(dir, name);
    const pkgFile = path.join(extDir, 'package.json');
    if (!existsSync(pkgFile)) continue;
    let pkgJson: { version?: string; tessera?: unknown };
    try {
      pkgJson = JSON.parse(readFileSync(pkgFile, 'utf8'));
    } catch (e) {
      problems.push({ dir: extDir, message: `package.json is not valid JSON: ${(e as Error).message}` });
      continue;
    }
    if (!pkgJson.tessera) continue;
    const parsed = PackageManifestSchema.safeParse(pkgJson.tessera);
    if (!parsed.success) {
      problems.push({ dir: extDir, message: `package.json "tessera" field: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` });
      continue;
    }
    const pkg = parsed.data;
    found.push({
      pkg,
      dir: extDir,
      candidate: {
        manifest: { id: pkg.id, version: pkgJson.version ?? '0.0.0', requires: pkg.requires, optional: pkg.optional, description: pkg.description },
        source,
        dir: extDir,
        load: async () => {
          if (!pkg.server) return { id: pkg.id } satisfies ExtensionDefinition<ServerContext>;
          const mod = await import(pathToFileURL(path.resolve(extDir, pkg.server)).href);
          const def = (mod.default ?? mod.extension) as ExtensionDefinition<ServerContext> | undefined;
          if (!def || typeof def !== 'object' || typeof def.id !== 'string') {
            throw new Error(`${pkg.server} must export default defineExtension({...}) from @tessera/sdk/server`);
          }
          return def;
        },
      },
    });
  }
  return found;
}
