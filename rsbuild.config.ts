// Build of the web host. Built-in client halves are bundled (see host/web/src/generated/extensions.ts,
// written by `./tessera build`); runtime-loaded ones arrive as Module Federation remotes.
import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { HOST_REMOTE_NAME, SHARED_MODULES, publishedClientModules } from './sdk/src/build/shared.ts';

// What built-in extensions publish for client halves (their "./client" and "./shared" exports) is shared
// with runtime-loaded remotes, as the SDK is.
const extensionsDir = path.join(import.meta.dirname, 'extensions');
const builtinPackages = readdirSync(extensionsDir)
  .map((d) => path.join(extensionsDir, d, 'package.json'))
  .filter((f) => existsSync(f))
  .map((f) => JSON.parse(readFileSync(f, 'utf8')) as { name: string; exports?: Record<string, unknown> });

const serverPort = Number(process.env.TESSERA_PORT ?? 3000);

export default defineConfig({
  root: import.meta.dirname,
  source: { entry: { index: './host/web/src/main.tsx' } },
  html: { title: 'Tessera Studio', mountId: 'root', meta: { viewport: 'width=device-width, initial-scale=1' }, favicon: './host/web/src/assets/favicon.ico' },
  // TESSERA_WEB_MINIFY=0 keeps names readable (profiling the page: ./tessera bench canvas with TESSERA_BENCH_PAGE_PROFILE=1).
  output: { distPath: { root: 'host/web/dist' }, cleanDistPath: true, assetPrefix: '/', minify: process.env.TESSERA_WEB_MINIFY !== '0' },
  performance: { chunkSplit: { strategy: 'split-by-experience' } },
  server: {
    port: Number(process.env.TESSERA_WEB_DEV_PORT ?? 3001),
    proxy: Object.fromEntries(['/api', '/v1', '/v3', '/_extensions', '/openapi.json', '/healthz'].map((p) => [p, `http://127.0.0.1:${serverPort}`])),
    historyApiFallback: true,
  },
  plugins: [
    pluginReact(),
    pluginModuleFederation({ name: HOST_REMOTE_NAME, remotes: {}, shared: { ...SHARED_MODULES, ...publishedClientModules(builtinPackages) }, dts: false, manifest: false }),
  ],
});
