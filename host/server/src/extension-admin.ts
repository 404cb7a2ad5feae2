import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { planExtensions, type ExtensionHost } from '@tessera/core';
import { ApiError, ErrorCode, TESSERA_VERSION, badRequest, notFound } from '@tessera/sdk';
import type { ExtensionAdmin, ExtensionInfo, ServerContext } from '@tessera/sdk/server';
import { satisfies } from '@tessera/core';
import { ADMIN_CHOICES_FILE, readAdminChoices, readAdminReasons, type TesseraConfig } from './config.ts';
import { PackageManifestSchema, type DiscoveredExtension, type DiscoveryProblem } from './discovery.ts';
import { readTarball, TarballError } from './tarball.ts';

const ID = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)*$/;

/** The host's ExtensionAdmin: what it found, what runs, and the choices kept for the next start. */
export function createExtensionAdmin(
  host: ExtensionHost<ServerContext>,
  config: TesseraConfig,
  discovered: DiscoveredExtension[],
  problems: DiscoveryProblem[],
): ExtensionAdmin {
  const byId = new Map(discovered.map((d) => [d.pkg.id, d]));
  // What was installed or removed since the start (applied at the next one).
  const installed = new Set<string>();
  const removed = new Set<string>();

  const enabledByConfig = (id: string, choices: Record<string, boolean>) =>
    choices[id] ?? config.extensions[id]?.enabled ?? true;

  const list = (): ExtensionInfo[] => {
    const choices = readAdminChoices(config.dataDir);
    const reasons = readAdminReasons(config.dataDir);
    const contributions = new Map<string, Map<string, string[]>>();
    for (const c of host.points.contributions()) {
      const mine = contributions.get(c.owner) ?? new Map<string, string[]>();
      mine.set(c.point, [...(mine.get(c.point) ?? []), c.key]);
      contributions.set(c.owner, mine);
    }
    const out: ExtensionInfo[] = host.status().map((s) => {
      const d = byId.get(s.id);
      const running = s.state === 'started';
      const wanted = choices[s.id];
      const pending = removed.has(s.id)
        ? 'remove'
        : installed.has(s.id)
          ? 'install'
          : wanted === false && running
            ? 'disable'
            : wanted === true && !running && s.reason === 'disabled by configuration'
              ? 'enable'
              : undefined;
      return {
        id: s.id,
        version: s.version,
        state: s.state,
        reason:
          s.reason === 'disabled by configuration' && reasons[s.id]
            ? `disabled by the studio: ${reasons[s.id]}`
            : s.reason,
        source: s.source,
        folder: s.dir ?? null,
        name: d?.pkg.name,
        description: d?.pkg.description,
        requires: d?.pkg.requires ?? [],
        optional: d?.pkg.optional ?? [],
        contributions: [...(contributions.get(s.id) ?? new Map()).entries()].map(([point, keys]) => ({ point, keys })),
        ...(pending ? { pending } : {}),
      };
    });
    for (const p of problems)
      out.push({
        id: p.id ?? path.basename(p.dir),
        version: '',
        state: 'failed',
        reason: p.message,
        source: p.source ?? 'runtime',
        folder: p.dir,
        requires: [],
        optional: [],
        contributions: [],
      });
    for (const id of installed)
      if (!out.some((e) => e.id === id))
        out.push({
          id,
          version: '',
          state: 'disabled',
          reason: 'installed; restart the studio to load it',
          source: 'runtime',
          folder: path.join(config.extensionsDir, id),
          requires: [],
          optional: [],
          contributions: [],
          pending: 'install',
        });
    return out;
  };

  const preview: ExtensionAdmin['preview'] = (changes) => {
    for (const id of Object.keys(changes)) if (!byId.has(id)) throw notFound(`No extension '${id}' is installed.`);
    const choices = { ...readAdminChoices(config.dataDir), ...changes };
    const manifests = discovered.map((d) => d.candidate.manifest);
    const next = planExtensions(manifests, (id) => enabledByConfig(id, choices));
    const out = [];
    for (const s of host.status()) {
      if (!byId.has(s.id)) continue;
      const willRun = !next.disabled.has(s.id);
      const runs = s.state === 'started';
      if (runs && !willRun) out.push({ id: s.id, change: 'disable' as const, reason: next.disabled.get(s.id)! });
      if (!runs && willRun)
        out.push({
          id: s.id,
          change: 'enable' as const,
          reason: changes[s.id] === true ? 'enabled by you' : 'what it needs runs again',
        });
    }
    return out;
  };

  const setEnabled: ExtensionAdmin['setEnabled'] = (changes) => {
    for (const id of Object.keys(changes)) {
      if (!byId.has(id)) throw notFound(`No extension '${id}' is installed.`);
      if (process.env.TESSERA_DISABLE?.split(',').includes(id) || process.env.TESSERA_ENABLE?.split(',').includes(id)) {
        throw new ApiError(
          409,
          ErrorCode.CONFLICT,
          `'${id}' is set by the environment (TESSERA_DISABLE / TESSERA_ENABLE), which wins over this page: change it there.`,
        );
      }
    }
    const choices = { ...readAdminChoices(config.dataDir), ...changes };
    // A reason the studio gave for disabling one stays until someone enables it again.
    const reasons = Object.fromEntries(
      Object.entries(readAdminReasons(config.dataDir)).filter(([id]) => choices[id] === false),
    );
    writeFileSync(
      path.join(config.dataDir, ADMIN_CHOICES_FILE),
      `${JSON.stringify({ enabled: choices, ...(Object.keys(reasons).length ? { reasons } : {}) }, null, 2)}\n`,
    );
  };

  const install: ExtensionAdmin['install'] = (tarball) => {
    let files: Map<string, Buffer>;
    try {
      files = readTarball(tarball);
    } catch (e) {
      if (e instanceof TarballError) throw badRequest(e.message);
      throw e;
    }
    const pkgText = files.get('package.json');
    if (!pkgText) throw badRequest('The package has no package.json.');
    let pkg: { version?: string; tessera?: unknown; engines?: { tessera?: string } };
    try {
      pkg = JSON.parse(pkgText.toString('utf8'));
    } catch {
      throw badRequest('The package.json of the package is not valid JSON.');
    }
    const manifest = PackageManifestSchema.safeParse(pkg.tessera);
    if (!manifest.success)
      throw badRequest(
        `The package is not a Tessera extension: its package.json needs a "tessera" field with an id (${manifest.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}).`,
      );
    const { id, server, client } = manifest.data;
    if (!ID.test(id))
      throw badRequest(`'${id}' is not a valid extension id: use lower-case letters, digits, '-' and '.'.`);
    const owner = byId.get(id);
    if (owner && owner.candidate.source !== 'runtime')
      throw new ApiError(
        409,
        ErrorCode.CONFLICT,
        `'${id}' is a built-in extension's id; a package cannot replace a built-in (rename it).`,
      );
    if (pkg.engines?.tessera && !satisfies(TESSERA_VERSION, pkg.engines.tessera))
      throw badRequest(`The package needs Tessera ${pkg.engines.tessera}; this studio is ${TESSERA_VERSION}.`);
    for (const entry of [server, client])
      if (entry && !files.has(path.posix.normalize(entry).replace(/^\.\//, '')))
        throw badRequest(
          `The package names ${entry} in its manifest, but it is not in the package (build it before packing).`,
        );
    // Unpacked beside the folder, then moved in: a half-written extension is never seen.
    mkdirSync(config.extensionsDir, { recursive: true });
    const target = path.join(config.extensionsDir, id);
    const staging = path.join(config.extensionsDir, `.installing-${id}-${process.pid}`);
    rmSync(staging, { recursive: true, force: true });
    for (const [name, data] of files) {
      const file = path.join(staging, name);
      if (!file.startsWith(staging + path.sep))
        throw badRequest(`The package holds '${name}', a path outside the package.`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, data);
    }
    const replaced = existsSync(target);
    if (replaced) rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    installed.add(id);
    removed.delete(id);
    return { id, version: pkg.version ?? '0.0.0', folder: target, replaced };
  };

  const remove: ExtensionAdmin['remove'] = (id) => {
    const d = byId.get(id);
    const folder = d?.dir ?? (installed.has(id) ? path.join(config.extensionsDir, id) : undefined);
    if (d && d.candidate.source !== 'runtime')
      throw new ApiError(409, ErrorCode.CONFLICT, `'${id}' is built in; disable it instead.`);
    if (!folder) throw notFound(`No runtime extension '${id}' is installed.`);
    const inside = path.relative(path.resolve(config.extensionsDir), path.resolve(folder));
    if (inside.startsWith('..') || path.isAbsolute(inside))
      throw new ApiError(
        409,
        ErrorCode.CONFLICT,
        `'${id}' is not in the extensions folder ${config.extensionsDir}; remove it by hand.`,
      );
    rmSync(folder, { recursive: true, force: true });
    installed.delete(id);
    removed.add(id);
  };

  return { list, preview, setEnabled, install, remove };
}
