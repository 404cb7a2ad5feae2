import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { defineExtension } from '@tessera/sdk/client';
import { renderExtension } from '@tessera/sdk/testing/client';
import type { CanvasNode } from '@tessera/ext-workflow/shared';
import type { NodeFormProps } from '@tessera/ext-workflow/client';
import { useState, type ComponentType } from 'react';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { IfForm, QuestionForm, TextForm } from '../src/client/forms.tsx';

afterEach(cleanup);

let last: Record<string, unknown> = {};
function harness(Form: ComponentType<NodeFormProps>, node: Partial<CanvasNode['node_param']>) {
  function Harness() {
    const [settings, setSettings] = useState<Record<string, unknown>>(node.settings ?? {});
    const full: CanvasNode = { node_id: 'n', type: 'x', node_param: { inputs: [], outputs: [], ...node, settings }, layout: { x: 0, y: 0 } };
    return <Form node={full} upstream={[]} onSettings={(s) => (setSettings(s), (last = s))} />;
  }
  // The forms translate in the nodes-core namespace: the harness registers it under that id.
  return defineExtension({ id: 'nodes-core', register: (ctx) => (ctx.i18n({ 'en-US': enUS, 'zh-CN': zhCN }), void ctx.route({ path: '/', component: Harness })) });
}
const input = (name: string) => ({ name, type: 'string' as const, value: { kind: 'literal' as const, value: '' } });

describe('the If form', () => {
  it('edits branches of conditions over the inputs; unary operators drop the right side', async () => {
    await renderExtension(harness(IfForm, { inputs: [input('name'), input('age')], settings: { branches: [{ logic: 1, conditions: [{ left: 'name', operator: 1, right: { literal: '' } }] }] } }), { path: '/', language: 'en-US' });
    fireEvent.change(within(screen.getByTestId('if-condition-0-0')).getByTestId('if-right'), { target: { value: 'Ada' } });
    await waitFor(() => expect(last).toEqual({ branches: [{ logic: 1, conditions: [{ left: 'name', operator: 1, right: { literal: 'Ada' } }] }] }));
    fireEvent.click(screen.getByTestId('if-add-branch'));
    await waitFor(() => expect((last.branches as unknown[]).length).toBe(2));
    expect(screen.getByText('Else if 1')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('if-branch-1')).getByTestId('if-add-condition'));
    await waitFor(() => expect((last.branches as { conditions: unknown[] }[])[1].conditions).toHaveLength(2));
    expect(screen.getByText('When no branch holds, the run takes the Else port.')).toBeTruthy();
  });

  it('says when there is nothing to compare, in Chinese too', async () => {
    await renderExtension(harness(IfForm, { settings: { branches: [{ logic: 1, conditions: [{ left: '', operator: 9 }] }] } }), { path: '/', language: 'zh-CN' });
    expect(screen.getByText('先在上方添加输入再进行比较。')).toBeTruthy();
    expect(within(screen.getByTestId('if-condition-0-0')).queryByTestId('if-right')).toBeNull(); // "is empty" has no right side
  });
});

describe('the Question form', () => {
  it('switches to options (one branch each) and edits them', async () => {
    await renderExtension(harness(QuestionForm, { settings: { question: '', answer_type: 'text' } }), { path: '/', language: 'en-US' });
    fireEvent.change(screen.getByTestId('question-text'), { target: { value: 'Which size?' } });
    fireEvent.click(within(screen.getByTestId('question-type')).getByText('Options'));
    await waitFor(() => expect(last).toMatchObject({ question: 'Which size?', answer_type: 'option', options: ['Option 1'] }));
    fireEvent.click(screen.getByTestId('question-add-option'));
    fireEvent.change(screen.getByTestId('question-option-1'), { target: { value: 'Large' } });
    await waitFor(() => expect(last.options).toEqual(['Option 1', 'Large']));
  });
});

describe('the Text form', () => {
  it('joins with a template or splits by separators', async () => {
    await renderExtension(harness(TextForm, { settings: { mode: 'concat', template: '' } }), { path: '/', language: 'en-US' });
    fireEvent.change(screen.getByTestId('text-template'), { target: { value: 'Hello, {{name}}!' } });
    await waitFor(() => expect(last).toEqual({ mode: 'concat', template: 'Hello, {{name}}!' }));
    fireEvent.click(screen.getByText('Split'));
    await waitFor(() => expect(last).toEqual({ mode: 'split', separators: [','] }));
  });
});
