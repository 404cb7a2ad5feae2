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
  'react-i18next': { singleton: true, requiredVersion: false },
  i18next: { singleton: true, requiredVersion: false },
  '@tanstack/react-query': { singleton: true, requiredVersion: false },
  'react-router': { singleton: true, requiredVersion: false },
};

export const HOST_REMOTE_NAME = 'tessera_host';

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
