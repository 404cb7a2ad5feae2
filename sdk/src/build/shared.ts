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
  // Arco by component (ARCO_IMPORTS turns `import { Button } from '@arco-design/web-react'` into its
  // component's module): a page downloads the components it uses, not the whole kit. Icons are not shared:
  // each is a small stateless module, bundled where it is used.
  '@arco-design/web-react/es/': { singleton: true, requiredVersion: false },
  // The whole kit stays provided (downloaded only when asked for) for client halves built before.
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

type SharedConfig = Record<
  string,
  { singleton: true; requiredVersion: string | false; eager?: boolean; import?: false }
>;

/**
 * What a built-in extension publishes for client halves (its package.json `exports` "./client", "./shared"
 * and "./widgets": the components its "./client" offers as `lazyView`s, for code that is itself loaded
 * lazily), shared like the SDK: a runtime client half that imports `@tessera/ext-workflow/client`
 * uses the studio's copy (the forms' shared inputs, icons) instead of bundling its own.
 */
export function publishedClientModules(packages: { name: string; exports?: Record<string, unknown> }[]): SharedConfig {
  const out: SharedConfig = {};
  for (const p of packages)
    for (const sub of ['./client', './shared', './widgets'])
      if (p.exports && sub in p.exports) out[`${p.name}/${sub.slice(2)}`] = { singleton: true, requiredVersion: false };
  return out;
}

/**
 * A runtime client half's shared modules: taken from the studio only (no fallback copy in the remote), except
 * Arco's components: the studio provides those its own pages use, so a remote keeps a copy of each it uses
 * (downloaded only when the studio has none).
 */
export function remoteShared(shared: SharedConfig): SharedConfig {
  return Object.fromEntries(
    Object.entries(shared).map(([k, v]) => [k, k === ARCO_BY_COMPONENT ? v : { ...v, import: false as const }]),
  );
}

const ARCO_BY_COMPONENT = '@arco-design/web-react/es/';

/**
 * Imports from Arco rewritten per component at build time (Rsbuild's `source.transformImport`): its module and
 * its style (`es/Button/style/css`), and each icon's module. Used by the studio's build and the extension preset.
 */
export const ARCO_IMPORTS = [
  // A component's style (`es/Button/style/css`) is a shared module too: a remote takes the studio's (already on
  // the page) and brings its own only for a component no studio page uses.
  { libraryName: '@arco-design/web-react', libraryDirectory: 'es', camelToDashComponentName: false, style: 'css' },
  {
    libraryName: '@arco-design/web-react/icon',
    customName: '@arco-design/web-react/icon/react-icon/{{ member }}',
    camelToDashComponentName: false,
    transformToDefaultImport: true,
  },
];

/**
 * Modules the studio's server provides to runtime-loaded server halves: a server bundle leaves them out
 * (imports stay imports) and the host resolves them to its own copies, so there is one instance of each
 * (registry points and ApiError compared by identity) and bundles stay small. Every `@tessera/*` package
 * (the SDK, the kernel, an extension's published API such as `@tessera/ext-workflow/shared`), zod and kysely.
 */
export function isHostProvided(specifier: string): boolean {
  return (
    specifier.startsWith('@tessera/') || specifier === 'zod' || specifier.startsWith('zod/') || specifier === 'kysely'
  );
}

export function remoteNameOf(id: string): string {
  return `tessera_ext_${id.replace(/[^a-z0-9]/g, '_')}`;
}
