// ./tessera create-extension NAME --out DIR [--template node-type|page|server] [--packages DIR]: an
// extension outside the studio's checkout, as an outside author starts one. It installs the author
// packages (@tessera/core, @tessera/sdk, @tessera/workflow-sdk) from the tarballs `./tessera build`
// packs into dist/packages, and its own `npm test` and `npm run build` pass.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.ts';

export type Template = 'node-type' | 'page' | 'server';
export const TEMPLATES: Template[] = ['node-type', 'page', 'server'];

const rootDev = (name: string): string => {
  const v = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies?.[name];
  if (!v) throw new Error(`the studio's package.json has no devDependency ${name}`);
  return v;
};
const depOf = (pkgDir: string, name: string): string =>
  JSON.parse(readFileSync(path.join(ROOT, pkgDir, 'package.json'), 'utf8')).dependencies?.[name];

/** Stops npm test and npm run build on an older Node with a sentence, not a crash deep in a test runner. */
const NODE_CHECK = `node -e "const [a, b] = process.versions.node.split('.').map(Number); if (a < 22 || (a === 22 && b < 12)) { console.error('This extension needs Node.js 22.12 or newer; this is ' + process.versions.node + '.'); process.exit(1); }"`;

/** The files of an out-of-tree extension; `packages` maps package names to tarball paths. */
export function outOfTreeFiles(
  id: string,
  template: Template,
  packages: Record<string, string>,
): Record<string, string> {
  const title = id
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
  const file = (name: string) => `file:${packages[name]}`;
  const server = true;
  const client = template === 'page';
  const nodeType = template === 'node-type';
  const key = id.replace(/-/g, '_');
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(
      {
        name: `tessera-ext-${id}`,
        version: '0.1.0',
        private: true,
        type: 'module',
        description: `${title}: describe what this extension adds to Tessera Studio.`,
        tessera: {
          id,
          requires: nodeType ? ['workflow@^0.1.0'] : [],
          ...(server ? { server: './dist/server/index.js' } : {}),
          ...(client ? { client: './dist/client/remoteEntry.js' } : {}),
        },
        // npm pack takes what "files" names (dist is ignored by git, so it would be left out otherwise).
        files: ['dist', 'README.md'],
        engines: { tessera: '^0.1.0', node: '>=22.12' },
        scripts: { pretest: NODE_CHECK, prebuild: NODE_CHECK, test: 'vitest run', build: 'rsbuild build' },
        dependencies: {},
        devDependencies: {
          '@tessera/core': file('@tessera/core'),
          '@tessera/sdk': file('@tessera/sdk'),
          // The server host the SDK's tester starts (a server half tested as the built-in ones are).
          ...(!nodeType && packages['@tessera/server'] ? { '@tessera/server': file('@tessera/server') } : {}),
          ...(nodeType ? { '@tessera/workflow-sdk': file('@tessera/workflow-sdk') } : {}),
          zod: depOf('sdk', 'zod'),
          kysely: depOf('sdk', 'kysely'),
          rxjs: depOf('sdk', 'rxjs'),
          '@rsbuild/core': rootDev('@rsbuild/core'),
          '@rsbuild/plugin-react': rootDev('@rsbuild/plugin-react'),
          '@module-federation/rsbuild-plugin': rootDev('@module-federation/rsbuild-plugin'),
          vitest: rootDev('vitest'),
          ...(client
            ? Object.fromEntries(
                [
                  'react',
                  'react-dom',
                  '@arco-design/web-react',
                  '@tanstack/react-query',
                  'react-router',
                  'i18next',
                  'react-i18next',
                ].map((n) => [n, depOf('host/web', n)]),
              )
            : {}),
        },
      },
      null,
      2,
    )}\n`,
    'rsbuild.config.ts': `import { extensionBuildConfig } from '@tessera/sdk/build';

// dist/server/index.js${client ? ' and dist/client/remoteEntry.js' : ''}: drop the folder (package.json and dist) into the studio's extensionsDir.
export default extensionBuildConfig({ root: import.meta.dirname });
`,
    'vitest.config.ts': `import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } });
`,
    'tsconfig.json': `${JSON.stringify({ compilerOptions: { target: 'es2023', module: 'preserve', moduleResolution: 'bundler', strict: true, noEmit: true, allowImportingTsExtensions: true, verbatimModuleSyntax: true, skipLibCheck: true, jsx: 'react-jsx' }, include: ['src', 'test'] }, null, 2)}\n`,
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': `# ${title}

An extension for Tessera Studio.

- \`npm test\`: its tests${nodeType ? ' (the node type run alone with `@tessera/workflow-sdk/testing`)' : ''}.
- \`npm run build\`: \`dist/\`, then copy this folder (package.json and dist) into the studio's extensions folder
  (\`extensionsDir\`, default \`./extensions.d\`), or pack it (\`npm pack\`) and install the tarball in the
  studio's Settings > Extensions. It loads when the studio starts next.
`,
  };
  if (nodeType) {
    files['src/server/index.ts'] = `import { defineExtension } from '@tessera/sdk/server';
import { NodeTypes, type NodeTypeDefinition } from '@tessera/workflow-sdk';
import { z } from 'zod';

const Settings = z.object({
  /** Upper-case the text, or lower-case it. */
  mode: z.enum(['upper', 'lower']).default('upper'),
});

/** ${title}: changes the case of its input \`text\`. */
export const ${key}: NodeTypeDefinition = {
  key: '${key}',
  code: 10000 + (Math.abs([...'${key}'].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7)) % 80000),
  version: 1,
  category: 'custom',
  label: { 'en-US': '${title}', 'zh-CN': '${title}' },
  description: { 'en-US': 'Changes the case of a text.', 'zh-CN': '改变文本的大小写。' },
  settings: Settings,
  outputsOf: () => [{ name: 'output', type: 'string' }],
  validate: (node) => (node.node_param.inputs.some((i) => i.name === 'text') ? [] : [{ type: 1, field: 'inputs', message: 'Give the node an input named text.' }]),
  execute(ctx) {
    const s = ctx.settings as z.infer<typeof Settings>;
    const text = String(ctx.inputs.text ?? '');
    ctx.log(\`\${s.mode}-casing \${text.length} characters\`);
    return { outputs: { output: s.mode === 'upper' ? text.toUpperCase() : text.toLowerCase() } };
  },
};

export default defineExtension({
  id: '${id}',
  register(ctx) {
    ctx.register(NodeTypes, ${key});
  },
});
`;
    files['test/node.test.ts'] = `import { describe, expect, it } from 'vitest';
import { checkNodeType, runNodeType } from '@tessera/workflow-sdk/testing';
import { ${key} } from '../src/server/index.ts';

describe('${title}', () => {
  it('changes the case of its text and logs what it did', async () => {
    const r = await runNodeType(${key}, { settings: { mode: 'upper' }, inputs: { text: 'Hello' } });
    expect(r.outputs).toEqual({ output: 'HELLO' });
    expect(r.logs).toEqual(['upper-casing 5 characters']);
    expect((await runNodeType(${key}, { settings: { mode: 'lower' }, inputs: { text: 'Hello' } })).outputs).toEqual({ output: 'hello' });
  });

  it('is a definition the studio accepts, and says when the input is missing', () => {
    const check = checkNodeType(${key});
    expect(check.registration).toEqual([]);
    expect(check.problems.map((p) => p.message)).toEqual(['Give the node an input named text.']);
    expect(check.outputs).toEqual([{ name: 'output', type: 'string' }]);
  });
});
`;
  } else {
    files['src/server/index.ts'] = `import { defineExtension } from '@tessera/sdk/server';
import { z } from 'zod';

/** ${title}: a route of its own (GET /api/${id}/hello). */
export default defineExtension({
  id: '${id}',
  configSchema: z.object({ greeting: z.string().default('Hello') }),
  register(ctx) {
    ctx.route({
      method: 'GET',
      path: '/api/${id}/hello',
      auth: 'user',
      query: z.object({ name: z.string().min(1).max(100).default('world') }),
      handler: ({ query }) => ({ text: \`\${ctx.config.greeting}, \${query.name}!\` }),
    });
  },
});
`;
    files['test/server.test.ts'] = `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import extension from '../src/server/index.ts';

// The extension alone in a real (in-process) studio host, on in-memory SQLite, as the built-in ones are tested.
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(extension, { packageDir: import.meta.dirname + '/..', config: { greeting: 'Hi' }, users: { ann: {} } });
});
afterAll(() => t?.close());

describe('${title}', () => {
  it('greets a signed-in user by name', async () => {
    expect(await t.call('GET', '/api/${id}/hello?name=Ada', undefined, 'ann')).toEqual({ text: 'Hi, Ada!' });
  });

  it('answers 401 to a caller who is not signed in', async () => {
    expect((await t.request({ url: '/api/${id}/hello' })).status).toBe(401);
  });
});
`;
  }
  if (client) {
    files['src/client/index.tsx'] = `import { defineExtension } from '@tessera/sdk/client';
import { ${title.replace(/ /g, '')}Page } from './Page.tsx';

export default defineExtension({
  id: '${id}',
  register(ctx) {
    ctx.i18n({ 'en-US': { nav: '${title}', title: '${title}' }, 'zh-CN': { nav: '${title}', title: '${title}' } });
    ctx.route({ path: '/${id}', component: ${title.replace(/ /g, '')}Page, title: 'title' });
    ctx.sidebar({ key: '${id}', area: 'home', label: 'nav', path: '/${id}', order: 50 });
  },
});
`;
    files['src/client/Page.tsx'] = `import { Typography } from '@arco-design/web-react';
import { useApi } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';

export function ${title.replace(/ /g, '')}Page() {
  const api = useApi();
  const [text, setText] = useState('…');
  useEffect(() => {
    void api.get<{ text: string }>('/api/${id}/hello').then((r) => setText(r.text));
  }, [api]);
  return <Typography.Title heading={4} data-testid="${id}-page">{text}</Typography.Title>;
}
`;
  }
  return files;
}
