import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { parseRequirement, satisfies, type ExtensionCandidate, type ExtensionDefinition } from '@tessera/core';
import { TESSERA_VERSION, describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';

/** The "tessera" field of an extension's package.json: its data manifest, read before any code runs. */
export const PackageManifestSchema = z.object({
  id: z.string(),
  requires: z.array(z.string()).default([]),
  optional: z.array(z.string()).default([]),
  /** Its name for people: a text, or one per language ({ "en-US": "Bots", "zh-CN": "智能体" }). */
  name: z.union([z.string().max(100), z.record(z.string(), z.string().max(100))]).optional(),
  /** What it adds: a text, or one per language; English defaults to package.json's "description". */
  description: z.union([z.string().max(2000), z.record(z.string(), z.string().max(2000))]).optional(),
  /** Server half: a module whose default export is defineExtension(...) from @tessera/sdk/server. */
  server: z.string().optional(),
  /** Client half: a module (built-in) or a Module Federation remote entry (runtime). */
  client: z.string().optional(),
  /** Module Federation remote name of a runtime-loaded client half (default: tessera_ext_<id>). */
  remoteName: z.string().optional(),
  /** Standalone pages (built-in extensions): a name -> a module drawing the page without the studio's shell. */
  webEntries: z.record(z.string().regex(/^[a-z0-9-]{1,40}$/), z.string()).optional(),
});
export type PackageManifest = Omit<z.output<typeof PackageManifestSchema>, 'name' | 'description'> & {
  name?: Record<string, string>;
  description?: Record<string, string>;
};

export interface DiscoveredExtension {
  candidate: ExtensionCandidate<ServerContext>;
  pkg: PackageManifest;
  dir: string;
}

export interface DiscoveryProblem {
  dir: string;
  message: string;
  /** The id the folder's manifest claims, when it could be read. */
  id?: string;
  source?: 'builtin' | 'runtime';
}

/** Lists extensions from a folder of packages (built-in extensions/ or the runtime extensionsDir). */
/** `warnings` gets what loads but is likely a mistake (a client half the manifest does not name). */
export function discoverExtensions(
  dir: string,
  source: 'builtin' | 'runtime',
  problems: DiscoveryProblem[] = [],
  warnings: DiscoveryProblem[] = [],
): DiscoveredExtension[] {
  if (!existsSync(dir)) return [];
  const found: DiscoveredExtension[] = [];
  for (const name of readdirSync(dir).sort()) {
    // Dot-folders are not extensions (a package being unpacked by an install is one).
    if (name.startsWith('.')) continue;
    const extDir = path.join(dir, name);
    const pkgFile = path.join(extDir, 'package.json');
    if (!existsSync(pkgFile)) continue;
    let pkgJson: { version?: string; tessera?: unknown; engines?: { tessera?: string } };
    try {
      pkgJson = JSON.parse(readFileSync(pkgFile, 'utf8'));
    } catch (e) {
      problems.push({ dir: extDir, source, message: `package.json is not valid JSON: ${describeError(e)}` });
      continue;
    }
    if (!pkgJson.tessera) continue;
    const parsed = PackageManifestSchema.safeParse(pkgJson.tessera);
    const claimed =
      typeof (pkgJson.tessera as { id?: unknown }).id === 'string' ? (pkgJson.tessera as { id: string }).id : undefined;
    if (!parsed.success) {
      problems.push({
        dir: extDir,
        source,
        id: claimed,
        message: `package.json "tessera" field: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      });
      continue;
    }
    const engine = pkgJson.engines?.tessera;
    if (engine && !satisfies(TESSERA_VERSION, engine)) {
      problems.push({
        dir: extDir,
        source,
        id: claimed,
        message: `it needs Tessera ${engine} (engines.tessera); this studio is ${TESSERA_VERSION}`,
      });
      continue;
    }
    // Names and descriptions per language (a text alone is English); package.json's description is the English one.
    const texts = (v: string | Record<string, string> | undefined, fallback?: string) => {
      const out = {
        ...(fallback ? { 'en-US': fallback } : {}),
        ...(typeof v === 'string' ? { 'en-US': v } : (v ?? {})),
      };
      return Object.keys(out).length ? out : undefined;
    };
    const pkg = {
      ...parsed.data,
      name: texts(parsed.data.name),
      description: texts(
        parsed.data.description,
        typeof (pkgJson as { description?: unknown }).description === 'string'
          ? (pkgJson as { description: string }).description
          : undefined,
      ),
    };
    // A client half the manifest does not name is never loaded: say so (the extension still loads).
    if (
      !pkg.client &&
      (existsSync(path.join(extDir, 'dist/client/remoteEntry.js')) ||
        existsSync(path.join(extDir, 'src/client/index.tsx')))
    ) {
      warnings.push({
        dir: extDir,
        source,
        id: pkg.id,
        message: `it has a client half (dist/client/remoteEntry.js or src/client/index.tsx) but its package.json "tessera" names no "client": the studio does not load it. Add "client": "./dist/client/remoteEntry.js".`,
      });
    }
    // Requirements may carry a version range: "workflow@^0.1.0".
    const requirements = pkg.requires.map(parseRequirement);
    const ranges = Object.fromEntries(requirements.filter((r) => r.range).map((r) => [r.id, r.range!]));
    found.push({
      pkg: { ...pkg, requires: requirements.map((r) => r.id) },
      dir: extDir,
      candidate: {
        manifest: {
          id: pkg.id,
          version: pkgJson.version ?? '0.0.0',
          requires: requirements.map((r) => r.id),
          optional: pkg.optional,
          description: pkg.description?.['en-US'],
          ...(Object.keys(ranges).length ? { ranges } : {}),
        },
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

/**
 * Drop-ins never replace a built-in: a runtime folder whose id is a built-in's (or an earlier folder's)
 * is set aside with a problem naming the folder. The built-in keeps running.
 */
export function settleIds(
  builtin: DiscoveredExtension[],
  runtime: DiscoveredExtension[],
  problems: DiscoveryProblem[],
): DiscoveredExtension[] {
  const taken = new Map(builtin.map((d) => [d.pkg.id, d]));
  const kept: DiscoveredExtension[] = [...builtin];
  for (const d of runtime) {
    const other = taken.get(d.pkg.id);
    if (other) {
      problems.push({
        dir: d.dir,
        source: 'runtime',
        id: d.pkg.id,
        message:
          other.candidate.source === 'builtin'
            ? `its id '${d.pkg.id}' is a built-in extension's; a drop-in cannot replace a built-in (rename it)`
            : `its id '${d.pkg.id}' is already used by the extension in ${other.dir}`,
      });
      continue;
    }
    taken.set(d.pkg.id, d);
    kept.push(d);
  }
  return kept;
}
