import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { defineExtension } from '@tessera/sdk/client';
import { renderExtension } from '@tessera/sdk/testing/client';
import { useState } from 'react';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { SYSTEM_VARIABLES, ValueInput } from '../src/client/widgets.tsx';
import type { InputBinding, ValueExpr } from '@tessera/workflow-sdk';
import type { UpstreamOutput } from '../src/client/points.ts';

afterEach(cleanup);

const upstream: UpstreamOutput[] = [
  { node_id: 'start', node_title: 'Start', field: { name: 'question', type: 'string' } },
  { node_id: 'llm', node_title: 'LLM', field: { name: 'output', type: 'string' } },
];
let last: ValueExpr | undefined;
function Harness() {
  const [binding, setBinding] = useState<InputBinding>({
    name: 'count',
    type: 'integer',
    value: { kind: 'literal', value: '' },
  });
  return (
    <ValueInput
      binding={binding}
      upstream={upstream}
      variables={[...SYSTEM_VARIABLES, { scope: 'app', name: 'region' }]}
      testId="v"
      onChange={(value) => (setBinding({ ...binding, value }), (last = value))}
    />
  );
}
const harness = defineExtension({
  id: 'workflow',
  register: (ctx) => (ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN }), void ctx.route({ path: '/', component: Harness })),
});

describe('the reference picker of an input', () => {
  it('types a literal by the input type, and picks a reference among the typed outputs of upstream nodes', async () => {
    await renderExtension(harness, { path: '/', language: 'en-US' });
    fireEvent.change(screen.getByTestId('v-literal'), { target: { value: '42' } });
    await waitFor(() => expect(last).toEqual({ kind: 'literal', value: 42 }));
    fireEvent.click(screen.getByTestId('v-kind'));
    fireEvent.click(await screen.findByText('Reference'));
    // Switching to a reference picks the nearest upstream output first.
    await waitFor(() => expect(last).toEqual({ kind: 'ref', node_id: 'start', path: ['question'] }));
    fireEvent.click(screen.getByTestId('v-ref'));
    fireEvent.click(await screen.findByText('LLM · output (string)'));
    await waitFor(() => expect(last).toEqual({ kind: 'ref', node_id: 'llm', path: ['output'] }));
  });
});

describe('a variable as an input', () => {
  it('offers the system variables and the app and user ones', async () => {
    await renderExtension(harness, { path: '/', language: 'zh-CN' });
    fireEvent.click(screen.getByTestId('v-kind'));
    fireEvent.click(await screen.findByText('变量'));
    await waitFor(() => expect(last).toEqual({ kind: 'var', scope: 'system', name: 'user_id' }));
    fireEvent.click(screen.getByTestId('v-var'));
    fireEvent.click(await screen.findByText('应用 · region'));
    await waitFor(() => expect(last).toEqual({ kind: 'var', scope: 'app', name: 'region' }));
  });
});
