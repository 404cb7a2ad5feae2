// ./tessera create-extension NAME [--dir DIR]: a working extension with a page, a route, a table and passing tests.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from './paths.ts';

const NAME = /^[a-z][a-z0-9-]{1,40}$/;

export function scaffoldFiles(id: string): Record<string, string> {
  const table = `${id.replace(/-/g, '_')}_item`;
  const title = id
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
  return {
    'package.json':
      JSON.stringify(
        {
          name: `@tessera/ext-${id}`,
          version: '0.1.0',
          private: true,
          type: 'module',
          description: `${title}: describe what this extension adds to the studio.`,
          tessera: {
            id,
            requires: [],
            optional: [],
            server: './src/server/index.ts',
            client: './src/client/index.tsx',
          },
          dependencies: { '@tessera/sdk': '0.1.0' },
        },
        null,
        2,
      ) + '\n',
    'src/shared/schema.ts': `import { z } from 'zod';

/** The contract shared by both halves: the item and the create call. */
export const CreateItem = z.object({ space_id: z.string().min(1), name: z.string().trim().min(1).max(100) });
export type CreateItem = z.infer<typeof CreateItem>;

export interface Item {
  id: string;
  space_id: string;
  name: string;
  created_at: string;
}
`,
    'src/server/index.ts': `import { defineExtension } from '@tessera/sdk/server';
import { z } from 'zod';
import { CreateItem, type Item } from '../shared/schema.ts';

export default defineExtension({
  id: '${id}',
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_create_items',
        up: (db) =>
          db.schema
            .createTable('${table}')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('name', 'varchar(100)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .execute(),
      },
    ]);
    ctx.route({
      method: 'POST',
      path: '/api/${id}/create',
      auth: { space: { from: 'body', field: 'space_id' } },
      body: CreateItem,
      handler: async ({ body }): Promise<Item> => {
        const item = { id: ctx.host.newId(), space_id: body.space_id, name: body.name, created_at: new Date().toISOString() };
        await ctx.db.insertInto('${table}').values(item).execute();
        return item;
      },
    });
    ctx.route({
      method: 'GET',
      path: '/api/${id}/list',
      auth: { space: { from: 'query', field: 'space_id' } },
      query: z.object({ space_id: z.string().min(1) }),
      handler: async ({ query }) => ({
        items: (await ctx.db.selectFrom('${table}').selectAll().where('space_id', '=', query.space_id).orderBy('created_at', 'desc').execute()) as Item[],
      }),
    });
  },
});
`,
    'src/client/index.tsx': `import { defineExtension } from '@tessera/sdk/client';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { ItemsPage } from './ItemsPage.tsx';

export default defineExtension({
  id: '${id}',
  register(ctx) {
    ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN });
    ctx.route({ path: '/${id}', component: ItemsPage, title: 'title' });
    ctx.sidebar({ key: '${id}', area: 'explore', label: 'title', path: '/${id}' });
  },
});
`,
    'src/client/ItemsPage.tsx': `import { Button, Input, List, Space, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast, useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Item } from '../shared/schema.ts';

/** Lists the items of a space and adds new ones. */
export function ItemsPage({ spaceId = 'personal' }: { spaceId?: string }) {
  const { t } = useTranslation('${id}');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const items = useQuery({ queryKey: ['${id}', spaceId], queryFn: () => api.get<{ items: Item[] }>('/api/${id}/list', { space_id: spaceId }) });
  const create = useMutation({
    mutationFn: () => api.post<Item>('/api/${id}/create', { space_id: spaceId, name }),
    onSuccess: () => {
      setName('');
      toast.success(t('created'));
      return qc.invalidateQueries({ queryKey: ['${id}'] });
    },
  });
  return (
    <div className="tessera-page">
      <Typography.Title heading={4}>{t('title')}</Typography.Title>
      <Space>
        <Input aria-label={t('name')} placeholder={t('name')} value={name} onChange={setName} />
        <Button type="primary" disabled={!name.trim()} loading={create.isPending} onClick={() => create.mutate()}>
          {t('add')}
        </Button>
      </Space>
      <List style={{ marginTop: 16 }} loading={items.isLoading} dataSource={items.data?.items ?? []} noDataElement={<span>{t('empty')}</span>} render={(item: Item) => <List.Item key={item.id}>{item.name}</List.Item>} />
    </div>
  );
}
`,
    'src/locales/en-US.json':
      JSON.stringify({ title, name: 'Name', add: 'Add', created: 'Added', empty: 'Nothing here yet.' }, null, 2) + '\n',
    'src/locales/zh-CN.json':
      JSON.stringify({ title, name: '名称', add: '添加', created: '已添加', empty: '这里还没有内容。' }, null, 2) +
      '\n',
    [`test/${id}.test.ts`]: `import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import extension from '../src/server/index.ts';

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(extension, { spaces: { s1: { ann: 'member' } } });
});
afterAll(() => t.close());

it('creates and lists items of a space', async () => {
  const item = await t.call('POST', '/api/${id}/create', { space_id: 's1', name: 'first' }, 'ann');
  expect(item.name).toBe('first');
  const { items } = await t.call('GET', '/api/${id}/list?space_id=s1', undefined, 'ann');
  expect(items.map((i: { name: string }) => i.name)).toEqual(['first']);
});

it('refuses callers outside the space and names a bad field', async () => {
  expect((await t.request({ method: 'POST', url: '/api/${id}/create', body: { space_id: 's1', name: 'x' }, as: 'bob' })).status).toBe(403);
  const bad = await t.request({ method: 'POST', url: '/api/${id}/create', body: { space_id: 's1', name: '' }, as: 'ann' });
  expect(bad.status).toBe(400);
  expect(bad.body.data.fields[0].field).toBe('body.name');
});
`,
    [`test/${id}.client.test.tsx`]: `// @vitest-environment happy-dom
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { renderExtension } from '@tessera/sdk/testing/client';
import client from '../src/client/index.tsx';
import server from '../src/server/index.ts';

let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(server, { spaces: { personal: { ann: 'member' } } });
});
afterAll(() => t.close());
afterEach(cleanup);

it('adds an item through the page', async () => {
  await renderExtension(client, { path: '/${id}', server: t, as: 'ann' });
  fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'from the page' } });
  fireEvent.click(screen.getByText('Add'));
  await waitFor(() => expect(screen.getByText('from the page')).toBeTruthy());
});
`,
  };
}

export async function createExtension(args: string[]): Promise<number> {
  if (args.includes('--out')) return createOutOfTree(args);
  const dirFlag = args.indexOf('--dir');
  const baseDir = dirFlag >= 0 ? path.resolve(args[dirFlag + 1]) : path.join(ROOT, 'extensions');
  const id = args.find((a, i) => !a.startsWith('--') && (dirFlag < 0 || i !== dirFlag + 1));
  if (!id || !NAME.test(id)) {
    console.error(
      'usage: ./tessera create-extension NAME   (NAME: lower-case letters, digits and -, e.g. "my-feature")',
    );
    return 2;
  }
  const dir = path.join(baseDir, id);
  if (existsSync(dir)) {
    console.error(`tessera: ${path.relative(ROOT, dir) || dir} already exists; choose another name`);
    return 2;
  }
  for (const [file, text] of Object.entries(scaffoldFiles(id))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  if (baseDir === path.join(ROOT, 'extensions')) {
    // Link the new workspace package.
    spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: ROOT, stdio: 'inherit' });
  }
  console.log(
    `Created ${path.relative(ROOT, dir)}. Next:\n  ./tessera test ${path.relative(ROOT, dir)}   run its tests\n  ./tessera start                   see its page at /${id}`,
  );
  return 0;
}

/** `--out DIR [--template node-type|page|server] [--packages DIR]`: an extension outside this checkout. */
async function createOutOfTree(args: string[]): Promise<number> {
  const { TEMPLATES, outOfTreeFiles } = await import('./scaffold-out.ts');
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const flags = new Set(['--out', '--template', '--packages']);
  const id = args.find((a, i) => !a.startsWith('--') && !flags.has(args[i - 1]));
  const template = (value('--template') ?? 'node-type') as (typeof TEMPLATES)[number];
  if (!id || !NAME.test(id) || !value('--out') || !TEMPLATES.includes(template)) {
    console.error(
      `usage: ./tessera create-extension NAME --out DIR [--template ${TEMPLATES.join('|')}] [--packages DIR]`,
    );
    return 2;
  }
  const dir = path.resolve(value('--out')!, id);
  if (existsSync(dir)) {
    console.error(`tessera: ${dir} already exists; choose another name or folder`);
    return 2;
  }
  // The author packages: the tarballs ./tessera build packs (made now when missing), or those in --packages.
  let packages: Record<string, string>;
  if (value('--packages')) {
    const from = path.resolve(value('--packages')!);
    const find = (name: string) => {
      const base = name.replace(/^@/, '').replace('/', '-');
      const hit = readdirSync(from)
        .filter((f) => f.startsWith(`${base}-`) && f.endsWith('.tgz'))
        .sort()
        .at(-1);
      if (!hit) throw new Error(`no ${base}-*.tgz in ${from}`);
      return path.join(from, hit);
    };
    packages = Object.fromEntries(['@tessera/core', '@tessera/sdk', '@tessera/workflow-sdk'].map((n) => [n, find(n)]));
  } else {
    const { packPackages } = await import('./pack.ts');
    packages = packPackages();
  }
  for (const [file, text] of Object.entries(outOfTreeFiles(id, template, packages))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  console.log(
    `Created ${dir} (${template}). Next:\n  cd ${dir} && npm install\n  npm test\n  npm run build    then copy the folder (package.json and dist) into the studio's extensionsDir`,
  );
  return 0;
}
