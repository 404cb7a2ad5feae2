import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import {
  checkArcoImports,
  checkBoundaries,
  checkExtensionImports,
  checkSharedWorkerTests,
  extensionPackages,
} from '../lint.ts';

/** A folder of files for one test: `file(relative path, text)` writes one and returns its path. */
function tempTree() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-lint-'));
  return (rel: string, text: string) => {
    const p = path.join(dir, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
}

it('flags shared importing server or client, and client importing server', () => {
  const file = tempTree();
  const files = [
    file(
      'ext/src/shared/a.ts',
      "import { x } from '../server/db.ts';\nimport type { Y } from '../client/page.tsx';\nimport { z } from 'zod';\n",
    ),
    file(
      'ext/src/client/page.tsx',
      "import { routes } from '../server/routes.ts';\nimport { A } from '../shared/a.ts';\nexport const p = import('@tessera/sdk/server');\n",
    ),
    file('ext/src/server/routes.ts', "import { A } from '../shared/a.ts';\nimport { P } from '../client/page.tsx';\n"),
    file('ext/src/shared/ok.ts', "import { defineEvent } from '@tessera/sdk';\n"),
  ];
  const problems = checkBoundaries(files).map((p) => `${path.basename(p.file)}:${p.line} ${p.specifier}`);
  expect(problems).toEqual([
    'a.ts:1 ../server/db.ts',
    'a.ts:2 ../client/page.tsx',
    'page.tsx:1 ../server/routes.ts',
    'page.tsx:3 @tessera/sdk/server',
  ]);
});

it('flags a re-export or a dynamic import of Arco, which the build cannot split by component', () => {
  const file = tempTree();
  const files = [
    file(
      'ext/src/client/ok.tsx',
      "import { Button, Modal } from '@arco-design/web-react';\nexport { Modal };\nexport type { ModalProps } from '@arco-design/web-react';\n",
    ),
    file(
      'ext/src/client/bad.tsx',
      "export { Modal } from '@arco-design/web-react';\nconst icons = () => import('@arco-design/web-react/icon');\nexport * from '@arco-design/web-react';\n",
    ),
  ];
  const problems = checkArcoImports(files).map((p) => `${path.basename(p.file)}:${p.line} ${p.specifier}`);
  expect(problems).toEqual([
    'bad.tsx:1 @arco-design/web-react',
    'bad.tsx:2 @arco-design/web-react/icon',
    'bad.tsx:3 @arco-design/web-react',
  ]);
});

it("flags another extension's code imported through an entry it does not publish, or that the manifest does not name", () => {
  const file = tempTree();
  const pkg = (dir: string, json: object) => file(`${dir}/package.json`, JSON.stringify(json));
  pkg('exts/models', {
    name: '@tessera/ext-models',
    tessera: { id: 'models' },
    exports: { './shared': './src/shared/index.ts', './client': './src/client/components.tsx' },
  });
  pkg('exts/spaces', {
    name: '@tessera/ext-spaces',
    tessera: { id: 'spaces' },
    exports: { './shared': './src/shared/index.ts' },
  });
  pkg('exts/tables', {
    name: '@tessera/ext-tables',
    tessera: { id: 'tables', requires: ['spaces@^0.1.0'], optional: ['models'] },
  });
  const files = [
    file(
      'exts/tables/src/client/page.tsx',
      [
        "import { CurrentSpaceService } from '@tessera/ext-spaces/shared';", // required: fine
        "import { ModelSelectView } from '@tessera/ext-models/shared';", // optional, its contract: fine
        "import type { ModelSelect } from '@tessera/ext-models/client';", // optional, types only: fine
        "import { ModelSelect } from '@tessera/ext-models/client';", // optional, its code: flagged
        "import { db } from '@tessera/ext-spaces/src/server/db.ts';", // not published: flagged
        "import { X } from '@tessera/ext-files/shared';", // not installed here: ignored
      ].join('\n'),
    ),
    file('exts/tables/test/page.test.ts', "import { ModelSelect } from '@tessera/ext-models/client';\n"), // tests may
  ];
  const exts = path.dirname(path.dirname(files[1])).replace(/[\\/]tables$/, '');
  const packages = extensionPackages([exts]);
  expect(packages.find((p) => p.id === 'tables')).toMatchObject({ requires: ['spaces'], optional: ['models'] });
  const problems = checkExtensionImports(files, packages).map(
    (p) => `${path.basename(p.file)}:${p.line} ${p.specifier} ${p.rule.split(':')[0]}`,
  );
  expect(problems).toEqual([
    'page.tsx:4 @tessera/ext-models/client extension-imports',
    'page.tsx:5 @tessera/ext-spaces/src/server/db.ts extension-imports',
  ]);
});

it('flags what a host or browser test file would leave behind in the worker the next file runs in', () => {
  const file = tempTree();
  const bad = file(
    'tests/host/leaky.test.ts',
    [
      "vi.mock('../x.ts');",
      "vi.stubEnv('A', '1');",
      'vi.useFakeTimers();',
      "process.env.TESSERA_X = '1';",
      "process.env['B'] = '2';",
      'delete process.env.C;',
      "const same = process.env.D === '1';",
      "const env = { ...process.env, E: '1' };",
    ].join('\n'),
  );
  expect(checkSharedWorkerTests([bad]).map((p) => `${p.line} ${p.specifier}`)).toEqual([
    '1 vi.mock(',
    '2 vi.stubEnv(',
    '3 vi.useFakeTimers(',
    '4 process.env.TESSERA_X =',
    "5 process.env['B'] =",
    '6 delete process.env',
  ]);
});
