import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderNodeForm } from '@tessera/ext-workflow/testing';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { SubWorkflowForm } from '../src/client/form.tsx';

afterEach(cleanup);

const asked: { url: string; body: Record<string, unknown> }[] = [];
const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msg: '', data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const fakeFetch = (async (url: string, init?: RequestInit) => {
  const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
  asked.push({ url, body });
  if (url.endsWith('/workflow_list'))
    return ok({
      workflow_list: [
        { workflow_id: '7', name: 'Weather' },
        { workflow_id: '1', name: 'This one' },
      ],
      has_more: false,
    });
  if (url.endsWith('/signature'))
    return ok({
      inputs: [
        { name: 'city', type: 'string' },
        { name: 'days', type: 'integer' },
      ],
      outputs: [{ name: 'forecast', type: 'string' }],
    });
  if (url.endsWith('/version_list')) return ok({ version_list: [{ version: 'v1.0.0' }] });
  return ok({});
}) as unknown as typeof fetch;

describe('the sub-workflow form', () => {
  it('lists the other workflows of the space; picking one takes its Start fields as inputs and its End result as outputs', async () => {
    const form = await renderNodeForm({
      extension: 'node-subworkflow',
      locales: { 'en-US': enUS, 'zh-CN': zhCN },
      Form: SubWorkflowForm,
      param: {
        inputs: [{ name: 'city', type: 'string', value: { kind: 'ref', node_id: 'start', path: ['q'] } }],
        settings: { workflow_id: '' },
      },
      workflowId: '1',
      fetch: fakeFetch,
      language: 'en-US',
    });
    fireEvent.click(screen.getByTestId('subworkflow-select'));
    expect(await screen.findByText('Weather')).toBeTruthy();
    expect(screen.queryByText('This one')).toBeNull(); // not itself
    fireEvent.click(screen.getByText('Weather'));
    await waitFor(() => expect(form.param().settings).toEqual({ workflow_id: '7' }));
    expect(form.param().inputs).toEqual([
      { name: 'city', type: 'string', value: { kind: 'ref', node_id: 'start', path: ['q'] } }, // kept
      { name: 'days', type: 'integer', value: { kind: 'literal', value: '' } },
    ]);
    expect(form.param().outputs).toEqual([{ name: 'forecast', type: 'string' }]);
    fireEvent.click(await screen.findByTestId('subworkflow-version'));
    fireEvent.click(await screen.findByText('v1.0.0'));
    await waitFor(() => expect(form.param().settings).toEqual({ workflow_id: '7', version: 'v1.0.0' }));
  });
});
