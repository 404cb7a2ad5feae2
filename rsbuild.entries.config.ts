// Build of the extensions' standalone pages (their package.json "tessera.webEntries"): pages served without the
// studio's shell, such as a published app, each a light bundle of its own (no Module Federation, no component
// kit unless it imports one). Written to host/web/dist/entries with a manifest the server reads
// (WebEntriesService): `<extension id>--<name>` -> its files.
import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { webEntries } from './tools/web-entries.ts';

const entries = webEntries();

export default defineConfig({
  root: import.meta.dirname,
  source: { entry: Object.fromEntries(entries.map((e) => [e.name, e.file])) },
  output: {
    distPath: { root: 'host/web/dist/entries' },
    cleanDistPath: true,
    assetPrefix: '/entries/',
    manifest: true,
    minify: process.env.TESSERA_WEB_MINIFY !== '0',
  },
  tools: { htmlPlugin: false },
  performance: { chunkSplit: { strategy: 'split-by-experience' } },
  plugins: [pluginReact()],
});
