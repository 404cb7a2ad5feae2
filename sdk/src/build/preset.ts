// @tessera/sdk/build: the build preset for an extension loaded at runtime (dropped into extensionsDir).
// Usage in the extension's rsbuild.config.ts:  export default extensionBuildConfig({ root: import.meta.dirname })
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RsbuildConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import {
  ARCO_IMPORTS,
  SHARED_MODULES,
  isHostProvided,
  publishedClientModules,
  remoteNameOf,
  remoteShared,
} from './shared.ts';

export { SHARED_MODULES, isHostProvided, remoteNameOf } from './shared.ts';

export interface ExtensionBuildOptions {
  /** The extension's package folder. */
  root: string;
  /** Defaults: src/server/index.ts and src/client/index.tsx when they exist in package.json "tessera". */
  serverEntry?: string;
  clientEntry?: string;
}

/**
 * Up to two outputs: dist/server/index.js (one ES module; what the studio provides, `isHostProvided`,
 * stays an import the host resolves to its own copy; other dependencies are bundled) and
 * dist/client/remoteEntry.js (a Module Federation remote exposing './client', sharing SHARED_MODULES).
 * An extension without a client entry (a server-only node type) builds the server half alone; one
 * without a server entry, the client half alone.
 */
export function extensionBuildConfig(opts: ExtensionBuildOptions): RsbuildConfig {
  const pkg = JSON.parse(readFileSync(path.join(opts.root, 'package.json'), 'utf8'));
  const id: string = pkg.tessera?.id;
  if (!id) throw new Error(`${opts.root}/package.json needs a "tessera": { "id": ... } field`);
  const serverEntry = opts.serverEntry ?? './src/server/index.ts';
  const clientEntry = opts.clientEntry ?? './src/client/index.tsx';
  // The studio's published client modules this extension imports (its @tessera/ext-* dependencies).
  const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies }).filter((d) =>
    d.startsWith('@tessera/ext-'),
  );
  const published = publishedClientModules(
    deps.map((name) => ({ name, exports: { './client': true, './shared': true, './widgets': true } })),
  );
  const hasServer = existsSync(path.resolve(opts.root, serverEntry));
  const hasClient = existsSync(path.resolve(opts.root, clientEntry));
  if (!hasServer && !hasClient) throw new Error(`${opts.root} has neither ${serverEntry} nor ${clientEntry}`);
  // The studio loads a client half only when the manifest names it: built without that, it would never show.
  if (hasClient && !pkg.tessera?.client)
    console.warn(
      `tessera: ${id} has a client half (${clientEntry}) but package.json "tessera" names no "client": the studio will not load it. Add "client": "./dist/client/remoteEntry.js".`,
    );
  return {
    root: opts.root,
    mode: 'production',
    environments: {
      ...(hasServer
        ? {
            server: {
              source: { entry: { index: serverEntry } },
              output: {
                target: 'node',
                module: true,
                distPath: { root: 'dist/server' },
                filename: { js: '[name].js' },
                cleanDistPath: true,
                minify: false,
                sourceMap: { js: false },
                externals: [
                  ({ request }: { request?: string }, callback: (err?: Error, result?: string) => void) =>
                    request && isHostProvided(request) ? callback(undefined, `module ${request}`) : callback(),
                ],
              },
            },
          }
        : {}),
      ...(hasClient
        ? {
            client: {
              source: { entry: { index: clientEntry }, transformImport: ARCO_IMPORTS },
              output: { target: 'web', distPath: { root: 'dist/client' }, assetPrefix: 'auto', cleanDistPath: true },
            },
          }
        : {}),
    },
    plugins: [
      pluginReact(),
      ...(hasClient
        ? [
            pluginModuleFederation(
              // Shared modules come from the studio's page only: the remote carries no fallback copies.
              {
                name: remoteNameOf(id),
                filename: 'remoteEntry.js',
                exposes: { './client': clientEntry },
                shared: remoteShared({ ...SHARED_MODULES, ...published }),
                dts: false,
                manifest: false,
              },
              { environment: 'client' },
            ),
          ]
        : []),
    ],
  };
}
