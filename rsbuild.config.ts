// Build of the web host. Built-in client halves are bundled (see host/web/src/generated/extensions.ts,
// written by `./tessera build`); runtime-loaded ones arrive as Module Federation remotes.
import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARCO_IMPORTS, HOST_REMOTE_NAME, SHARED_MODULES, publishedClientModules } from './sdk/src/build/shared.ts';

// What built-in extensions publish for client halves (their "./client", "./shared" and "./widgets" exports) is shared
// with runtime-loaded remotes, as the SDK is.
const extensionsDir = path.join(import.meta.dirname, 'extensions');
const builtinPackages = readdirSync(extensionsDir)
  .map((d) => path.join(extensionsDir, d, 'package.json'))
  .filter((f) => existsSync(f))
  .map((f) => JSON.parse(readFileSync(f, 'utf8')) as { name: string; exports?: Record<string, unknown> });

// The shared 'react-router' is the studio's selection of its exports (host/web/src/router.ts), which imports the
// package under another name.
const reactRouter = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'node_modules/react-router/package.json'), 'utf8'),
) as { version: string };
const sharedRouter = {
  ...SHARED_MODULES['react-router'],
  import: './host/web/src/router.ts',
  version: reactRouter.version,
};

const ARCO_INTERNALS =
  /node_modules[\\/](@arco-design[\\/]web-react[\\/]es|@arco-design[\\/]color|@babel[\\/]runtime|lodash|dayjs|b-tween|b-validate|color|compute-scroll-into-view|dom-helpers|focus-lock|number-precision|react-focus-lock|react-is|react-transition-group|resize-observer-polyfill|scroll-into-view-if-needed|shallowequal)[\\/]/;

function statsFile(file: string) {
  return {
    apply(compiler: {
      hooks: { done: { tap(name: string, fn: (stats: { toJson(o: object): unknown }) => void): void } };
    }) {
      compiler.hooks.done.tap('tessera-stats', (stats) =>
        writeFileSync(
          file,
          JSON.stringify(stats.toJson({ all: false, modules: true, reasons: true, ids: true, chunks: false })),
        ),
      );
    },
  };
}

const serverPort = Number(process.env.TESSERA_PORT ?? 3000);

export default defineConfig({
  root: import.meta.dirname,
  source: { entry: { index: './host/web/src/main.tsx' }, transformImport: ARCO_IMPORTS },
  resolve: {
    alias: {
      'tessera-react-router-package$': path.join(
        import.meta.dirname,
        'node_modules/react-router/dist/production/index.js',
      ),
    },
  },
  html: {
    title: 'Tessera Studio',
    mountId: 'root',
    meta: { viewport: 'width=device-width, initial-scale=1' },
    favicon: './host/web/src/assets/favicon.ico',
  },
  // TESSERA_WEB_MINIFY=0 keeps names readable (profiling the page: ./tessera bench canvas with TESSERA_BENCH_PAGE_PROFILE=1);
  // TESSERA_WEB_SOURCEMAP=1 writes source maps (what a page's bytes are made of: bench/web-sources.ts).
  output: {
    distPath: { root: 'host/web/dist' },
    cleanDistPath: true,
    assetPrefix: '/',
    minify: process.env.TESSERA_WEB_MINIFY !== '0',
    sourceMap: process.env.TESSERA_WEB_SOURCEMAP === '1' ? { js: 'source-map' } : undefined,
  },
  performance: {
    chunkSplit: {
      strategy: 'split-by-experience',
      // Arco's icons the studio uses, together (each icon's module repeats the same helpers, which compress away
      // in one file).
      forceSplitting: {
        'lib-arco-icons': /node_modules[\\/]@arco-design[\\/]web-react[\\/]icon[\\/]/,
      },
    },
  },
  // Everything compiled up front in dev too: with lazy compilation of dynamic imports (pages, texts, forms) the
  // page's proxy chunks answered HTML and the studio did not draw (\`./tessera dev\`).
  dev: { lazyCompilation: false },
  server: {
    port: Number(process.env.TESSERA_WEB_DEV_PORT ?? 3001),
    proxy: Object.fromEntries(
      ['/api', '/v1', '/v3', '/_extensions', '/openapi.json', '/healthz'].map((p) => [
        p,
        `http://127.0.0.1:${serverPort}`,
      ]),
    ),
    historyApiFallback: true,
  },
  tools: {
    rspack: (config) => {
      // Arco's internals and its helper packages, split by which chunks use them (minSize 0: the parts the first
      // page needs are not copied into each component's file, nor merged with what only later pages use).
      const split = (config.optimization?.splitChunks || {}) as { cacheGroups?: Record<string, unknown> };
      // The extensions' texts of one language, in one file (each registers a loader per language: ctx.i18n).
      const locale = (language: string) => ({
        test: new RegExp(`[\\\\/]extensions[\\\\/][^\\\\/]+[\\\\/]src[\\\\/]locales[\\\\/]${language}\\.json$`),
        name: `locale-${language}`,
        chunks: 'async',
        enforce: true,
        priority: 20,
      });
      split.cacheGroups = {
        ...split.cacheGroups,
        arcoInternals: { test: ARCO_INTERNALS, minSize: 0, minChunks: 2, priority: 5, reuseExistingChunk: true },
        localeEnUS: locale('en-US'),
        localeZhCN: locale('zh-CN'),
      };
      // TESSERA_WEB_STATS=1 writes host/web/stats.json: each module and what imports it (why a page downloads it).
      if (process.env.TESSERA_WEB_STATS === '1')
        config.plugins.push(statsFile(path.join(import.meta.dirname, 'host/web/stats.json')));
    },
  },
  plugins: [
    pluginReact(),
    pluginModuleFederation({
      name: HOST_REMOTE_NAME,
      remotes: {},
      shared: { ...SHARED_MODULES, 'react-router': sharedRouter, ...publishedClientModules(builtinPackages) },
      dts: false,
      manifest: false,
    }),
  ],
});
