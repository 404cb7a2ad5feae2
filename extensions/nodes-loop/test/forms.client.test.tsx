import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { CanvasNode } from '@tessera/ext-workflow/shared';
import type { NodeFormProps, UpstreamOutput } from '@tessera/ext-workflow/client';
import { renderNodeForm } from '@tessera/ext-workflow/testing';
import type { ComponentType } from 'react';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { BatchForm, LoopForm } from '../src/client/forms.tsx';
import { hintForm } from '../src/client/hint.ts';

afterEach(cleanup);

const render = (
  Form: ComponentType<NodeFormProps>,
  param: Partial<CanvasNode['node_param']>,
  opts: { body?: UpstreamOutput[]; language?: 'en-US' | 'zh-CN' } = {},
) =>
  renderNodeForm({
    extension: 'nodes-loop',
    locales: { 'en-US': enUS, 'zh-CN': zhCN },
    Form,
    param,
    language: 'en-US',
    ...opts,
  });
const body: UpstreamOutput[] = [{ node_id: 'code', node_title: 'Double', field: { name: 'doubled', type: 'number' } }];
const items = { name: 'items', type: 'array' as const, value: { kind: 'literal' as const, value: [] } };

describe('the Loop form', () => {
  it('chooses the kind of loop, says which input it needs, declares variables and collects a body output', async () => {
    const form = await render(
      LoopForm,
      { inputs: [items], settings: { loop_type: 'array', max_iterations: 1000, variables: [], collect: [] } },
      { body },
    );
    expect(screen.getByTestId('loop-needs').textContent).toBe('Needs an input named items (above).');
    fireEvent.click(screen.getByText('Count'));
    await waitFor(() => expect(form.settings()!.loop_type).toBe('count'));
    expect(screen.getByTestId('loop-needs').textContent).toContain('count');
    fireEvent.click(screen.getByTestId('loop-variable-add'));
    fireEvent.change(screen.getByTestId('loop-variable-0'), { target: { value: 'total' } });
    fireEvent.click(screen.getByTestId('collect-add'));
    await waitFor(() =>
      expect(form.settings()).toMatchObject({
        variables: ['total'],
        collect: [{ name: 'results', node_id: 'code', path: ['doubled'] }],
      }),
    );
  });

  it('says the body is empty, in Chinese', async () => {
    await render(LoopForm, { settings: { loop_type: 'infinite' } }, { language: 'zh-CN' });
    expect(screen.getByText('循环体为空：选中循环节点后添加节点。')).toBeTruthy();
    expect(screen.getByTestId('loop-needs').textContent).toContain('终止循环');
  });
});

describe('the Batch form', () => {
  it('sets how many items run at once and what to collect', async () => {
    const form = await render(
      BatchForm,
      { inputs: [items], settings: { concurrency: 4, max_items: 100, collect: [] } },
      { body },
    );
    const concurrency = screen.getByTestId('batch-concurrency');
    const field = concurrency.tagName === 'INPUT' ? concurrency : concurrency.querySelector('input')!;
    fireEvent.change(field, { target: { value: '8' } });
    fireEvent.blur(field);
    fireEvent.click(screen.getByTestId('collect-add'));
    await waitFor(() =>
      expect(form.settings()).toMatchObject({
        concurrency: 8,
        collect: [{ name: 'results', node_id: 'code', path: ['doubled'] }],
      }),
    );
  });

  it('says that a longer list is cut to the maximum', async () => {
    await render(BatchForm, { inputs: [items], settings: { concurrency: 4, max_items: 30, collect: [] } }, { body });
    expect(screen.getByTestId('batch-max-hint').textContent).toBe(
      'A longer list is cut to the first 30 items (the node log says so).',
    );
  });
});

describe('Break, Continue and Set loop variable', () => {
  it('explain themselves', async () => {
    await render(hintForm('break'), {});
    expect(screen.getByTestId('break-form').textContent).toContain('ends the loop');
    cleanup();
    await render(hintForm('set_loop_variable'), {}, { language: 'zh-CN' });
    expect(screen.getByTestId('set_loop_variable-form').textContent).toContain('循环变量');
  });
});
