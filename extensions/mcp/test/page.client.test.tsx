import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createExtensionTester, type ExtensionTester } from '@tessera/sdk/testing';
import { renderExtension } from '@tessera/sdk/testing/client';
import { fixedSpace } from '@tessera/ext-spaces/testing';
import server from '../src/server/index.ts';
import client from '../src/client/index.tsx';

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

describe('the MCP page', () => {
  it('is empty in Chinese, and a URL the studio may not reach is named next to the field', async () => {
    await renderExtension(client, { path: '/mcp', server: t, as: 'ann', language: 'zh-CN', others: [space] });
    expect(await screen.findByText('还没有 MCP 服务。通过 URL 添加一个。')).toBeTruthy();
    fireEvent.click(screen.getByTestId('mcp-create'));
    const name = await screen.findByTestId('mcp-name');
    fireEvent.change(name.querySelector('input') ?? name, { target: { value: 'Local' } });
    const url = screen.getByTestId('mcp-url');
    fireEvent.change(url.querySelector('input') ?? url, { target: { value: 'http://127.0.0.1:9/mcp' } });
    fireEvent.click(screen.getByTestId('mcp-save'));
    await waitFor(() => expect(document.body.textContent).toMatch(/loopback/));
  });
});
