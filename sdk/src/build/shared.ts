/**
 * Modules the web host shares with runtime-loaded client halves (Module Federation): one React, one
 * SDK (so contexts and points are the same objects), one UI kit.
 */
export const SHARED_MODULES: Record<string, { singleton: true; requiredVersion: string | false; eager?: boolean }> = {
  react: { singleton: true, requiredVersion: '^19.0.0' },
  'react/jsx-runtime': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom/client': { singleton: true, requiredVersion: '^19.0.0' },
  '@tessera/core': { singleton: true, requiredVersion: false },
  '@tessera/sdk': { singleton: true, requiredVersion: false },
  '@tessera/sdk/client': { singleton: true, requiredVersion: false },
  '@arco-design/web-react': { singleton: true, requiredVersion: false },
  '@arco-design/web-react/icon': { singleton: true, requiredVersion: false },
  '@tessera/workflow-sdk': { singleton: true, requiredVersion: false },
  '@tessera/workflow-sdk/client': { singleton: true, requiredVersion: false },
  'react-i18next': { singleton: true, requiredVersion: false },
  i18next: { singleton: true, requiredVersion: false },
  '@tanstack/react-query': { singleton: true, requiredVersion: false },
  'react-router': { singleton: true, requiredVersion: false },
};

export const HOST_REMOTE_NAME = 'tessera_host';

type SharedConfig = Record<string, { singleton: true; requiredVersion: string | false; eager?: boolean; import?: false }>;

/**
 * What a built-in extension publishes for client halves (its package.json `exports` "./client" and
 * "./shared"), shared like the SDK: a runtime client half that imports `@tessera/ext-workflow/client`
 * uses the studio's copy (the forms' shared inputs, icons) instead of bundling its own.
 */
export function publishedClientModules(packages: { name: string; exports?: Record<string, unknown> }[]): SharedConfig {
  const out: SharedConfig = {};
  for (const p of packages) for (const sub of ['./client', './shared']) if (p.exports && sub in p.exports) out[`${p.name}/${sub.slice(2)}`] = { singleton: true, requiredVersion: false };
  return out;
}

/** A runtime client half's shared modules: taken from the studio only (no fallback copy in the remote). */
export function remoteShared(shared: SharedConfig): SharedConfig {
  return Object.fromEntries(Object.entries(shared).map(([k, v]) => [k, { ...v, import: false as const }]));
}

/**
 * Modules the studio's server provides to runtime-loaded server halves: a server bundle leaves them out
 * (imports stay imports) and the host resolves them to its own copies, so there is one instance of each
 * (registry points and ApiError compared by identity) and bundles stay small. Every `@tessera/*` package
 * (the SDK, the kernel, an extension's published API such as `@tessera/ext-workflow/shared`), zod and kysely.
 */
export function isHostProvided(specifier: string): boolean {
  return specifier.startsWith('@tessera/') || specifier === 'zod' || specifier.startsWith('zod/') || specifier === 'kysely';
}

export function remoteNameOf(id: string): string {
  return `tessera_ext_${id.replace(/[^a-z0-9]/g, '_')}`;
}
