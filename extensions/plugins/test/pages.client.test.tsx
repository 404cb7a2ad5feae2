import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { renderExtension } from '@tessera/sdk/testing/client';
import { fixedSpace } from '@tessera/ext-spaces/testing';
import server from '../src/server/index.ts';
import client from '../src/client/index.tsx';

// The plugin pages against the plugins server half alone; the current space is s1.
const space = fixedSpace('s1');
let t: ExtensionTester;
beforeAll(async () => {
  t = await createExtensionTester(server, {
    packageDir: path.resolve(import.meta.dirname, '..'),
    stubs: [{ id: 'identity' }, { id: 'spaces' }, { id: 'workflow' }],
    users: { ann: { userId: 'ann' } },
    spaces: { s1: { ann: 'member' } },
  });
});
afterAll(() => t.close());
afterEach(cleanup);

describe('plugin pages', () => {
  it('lists no plugin in Chinese, then creates one by hand and opens its editor with its settings', async () => {
    await renderExtension(client, { path: '/plugins', server: t, as: 'ann', language: 'zh-CN', others: [space] });
    expect(await screen.findByText('还没有插件。导入 OpenAPI 文档或手动创建一个。')).toBeTruthy();
    fireEvent.click(screen.getByTestId('plugin-create'));
    fireEvent.click(await screen.findByTestId('plugin-create-hand'));
    fireEvent.change(
      screen.getByTestId('plugin-create-name').querySelector('input') ?? screen.getByTestId('plugin-create-name'),
      { target: { value: '天气' } },
    );
    fireEvent.click(screen.getByTestId('plugin-create-save'));
    await waitFor(() => expect(screen.getByTestId('plugin-editor')).toBeTruthy());
    expect(screen.getByTestId('plugin-title').textContent).toBe('天气');
    expect(screen.getByText('还没有 API：添加一个或导入文档。')).toBeTruthy();
  });

  it('shows what an import would create before importing', async () => {
    await renderExtension(client, { path: '/plugins?create=1', server: t, as: 'ann', others: [space] });
    const text = await screen.findByTestId('plugin-import-text');
    fireEvent.change(text.querySelector('textarea') ?? text, {
      target: {
        value:
          'openapi: 3.0.0\ninfo: { title: Pets }\nservers: [{ url: "https://pets.example.com" }]\npaths:\n  /pets:\n    get: { operationId: listPets, summary: List, responses: {} }\n',
      },
    });
    await waitFor(
      () =>
        expect(screen.getAllByTestId('plugin-import-api').map((e) => e.textContent)).toEqual([
          expect.stringContaining('listPets'),
        ]),
      { timeout: 3000 },
    );
    expect(screen.getByTestId('plugin-import-preview').textContent).toContain('https://pets.example.com');
  });
});
