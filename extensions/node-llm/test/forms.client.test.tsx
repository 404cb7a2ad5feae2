import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderNodeForm } from '@tessera/ext-workflow/testing';
import type { ComponentType } from 'react';
import type { NodeFormProps } from '@tessera/ext-workflow/client';
import type { CanvasNode } from '@tessera/ext-workflow/shared';
import modelsEn from '../../models/src/locales/en-US.json';
import modelsZh from '../../models/src/locales/zh-CN.json';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { IntentForm, LlmForm, toolName } from '../src/client/forms.tsx';

afterEach(cleanup);

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msg: '', data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const models = [
  {
    model_id: 'm1',
    model_name: 'fake-chat',
    display_name: 'Fake Chat',
    kind: 'chat',
    provider: 'openai-compatible',
    credential_id: 'c',
    scope: 'space',
    enabled: true,
    capabilities: { function_call: true, json_output: true, vision: false, reasoning: false },
    default_params: {},
  },
];
const fakeFetch = (async (url: string) => {
  if (url.includes('/api/model_manage/')) return ok({ models });
  if (url.endsWith('/workflow_list'))
    return ok({ workflow_list: [{ workflow_id: '7', name: 'Look up order' }], has_more: false });
  if (url.endsWith('/signature'))
    return ok({ inputs: [{ name: 'order_id', type: 'string', required: true }], outputs: [] });
  return ok({});
}) as unknown as typeof fetch;
const render = (
  Form: ComponentType<NodeFormProps>,
  param: Partial<CanvasNode['node_param']>,
  opts: { problems?: Record<string, string>; language?: 'en-US' | 'zh-CN' } = {},
) =>
  renderNodeForm({
    extension: 'node-llm',
    locales: { 'en-US': enUS, 'zh-CN': zhCN },
    namespaces: { models: { 'en-US': modelsEn, 'zh-CN': modelsZh } },
    Form,
    param,
    upstream: [{ node_id: 'start', node_title: 'Start', field: { name: 'question', type: 'string' } }],
    fetch: fakeFetch,
    language: 'en-US',
    ...opts,
  });

describe('the LLM form', () => {
  it('picks a model, writes the prompt with completion, declares JSON fields and adds a workflow as a tool', async () => {
    const form = await render(LlmForm, {
      settings: { model_id: '', user_prompt: '', output_format: 'text', skills: [] },
    });
    fireEvent.click(screen.getAllByTestId('model-select')[0]);
    fireEvent.click(await screen.findByText('Fake Chat'));
    await waitFor(() => expect(form.settings()).toMatchObject({ model_id: 'm1', model_name: 'Fake Chat' })); // the card shows the name
    fireEvent.change(screen.getByTestId('llm-user'), {
      target: { value: 'Answer: {{que', selectionStart: 13, selectionEnd: 13 },
    });
    fireEvent.mouseDown(await screen.findByText('Start · question'));
    await waitFor(() => expect(form.settings()!.user_prompt).toBe('Answer: {{start.question}}'));
    fireEvent.click(screen.getByText('JSON'));
    fireEvent.click(await screen.findByTestId('llm-json-field-add'));
    await waitFor(() =>
      expect(form.settings()).toMatchObject({
        output_format: 'json',
        json_fields: [{ name: 'field1', type: 'string' }],
      }),
    );
    fireEvent.click(screen.getByTestId('llm-skill-add'));
    fireEvent.click(await screen.findByText('Look up order'));
    await waitFor(() =>
      expect(form.settings()!.skills).toEqual([
        {
          workflow_id: '7',
          name: 'Look_up_order',
          description: 'Look up order',
          parameters: [{ name: 'order_id', type: 'string', required: true }],
        },
      ]),
    );
  });

  it('shows the problems the server found, in Chinese', async () => {
    await render(
      LlmForm,
      { settings: { model_id: '', user_prompt: '' } },
      {
        problems: { 'settings.model_id': 'Choose a model.', 'settings.user_prompt': 'Write the user prompt.' },
        language: 'zh-CN',
      },
    );
    expect(screen.getAllByTestId('field-problem').map((e) => e.textContent)).toEqual([
      'Choose a model.',
      'Write the user prompt.',
    ]);
    expect(screen.getByText('用户提示词')).toBeTruthy();
  });

  it('makes tool names the model accepts', () => {
    expect(toolName('天气 查询', [])).toBe('workflow');
    expect(toolName('2 step flow', [])).toBe('_2_step_flow');
    expect(toolName('Look up', ['Look_up'])).toBe('Look_up_2');
  });
});

describe('the Intent form', () => {
  it('edits the intents (one branch each) and the mode', async () => {
    const form = await render(IntentForm, {
      inputs: [{ name: 'query', type: 'string', value: { kind: 'literal', value: '' } }],
      settings: { model_id: 'm1', intents: [''], mode: 'fast' },
    });
    fireEvent.change(screen.getByTestId('intent-0'), { target: { value: 'asks about an order' } });
    fireEvent.click(screen.getByTestId('intent-add'));
    fireEvent.change(screen.getByTestId('intent-1'), { target: { value: 'wants a refund' } });
    fireEvent.click(screen.getByText('Full (class and reason)'));
    await waitFor(() =>
      expect(form.settings()).toEqual({
        model_id: 'm1',
        intents: ['asks about an order', 'wants a refund'],
        mode: 'full',
      }),
    );
  });
});
