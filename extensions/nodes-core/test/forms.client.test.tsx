import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CanvasNode } from '@tessera/ext-workflow/shared';
import type { NodeFormProps, UpstreamOutput } from '@tessera/ext-workflow/client';
import { renderNodeForm } from '@tessera/ext-workflow/testing';
import type { ComponentType } from 'react';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import {
  AggregatorForm,
  AssignForm,
  EndForm,
  IfForm,
  InputForm,
  MessageForm,
  QuestionForm,
  TextForm,
} from '../src/client/forms.tsx';
import { hintForm } from '../src/client/summary.ts';

afterEach(cleanup);

type Opts = { upstream?: UpstreamOutput[]; problems?: Record<string, string>; language?: 'en-US' | 'zh-CN' };
const render = (Form: ComponentType<NodeFormProps>, param: Partial<CanvasNode['node_param']>, opts: Opts = {}) =>
  renderNodeForm({
    extension: 'nodes-core',
    locales: { 'en-US': enUS, 'zh-CN': zhCN },
    Form,
    param,
    language: 'en-US',
    ...opts,
  });
const input = (name: string) => ({ name, type: 'string' as const, value: { kind: 'literal' as const, value: '' } });
const upstream: UpstreamOutput[] = [{ node_id: 'start', node_title: 'Start', field: { name: 'city', type: 'string' } }];

describe('the If form', () => {
  it('edits branches of conditions over the inputs; unary operators drop the right side', async () => {
    const form = await render(IfForm, {
      inputs: [input('name'), input('age')],
      settings: { branches: [{ logic: 1, conditions: [{ left: 'name', operator: 1, right: { literal: '' } }] }] },
    });
    fireEvent.change(within(screen.getByTestId('if-condition-0-0')).getByTestId('if-right'), {
      target: { value: 'Ada' },
    });
    await waitFor(() =>
      expect(form.settings()).toEqual({
        branches: [{ logic: 1, conditions: [{ left: 'name', operator: 1, right: { literal: 'Ada' } }] }],
      }),
    );
    fireEvent.click(screen.getByTestId('if-add-branch'));
    await waitFor(() => expect((form.settings()!.branches as unknown[]).length).toBe(2));
    expect(screen.getByText('Else if 1')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('if-branch-1')).getByTestId('if-add-condition'));
    await waitFor(() =>
      expect((form.settings()!.branches as { conditions: unknown[] }[])[1].conditions).toHaveLength(2),
    );
    expect(screen.getByText('When no branch holds, the run takes the Else port.')).toBeTruthy();
  });

  it('says when there is nothing to compare, in Chinese too', async () => {
    await render(
      IfForm,
      { settings: { branches: [{ logic: 1, conditions: [{ left: '', operator: 9 }] }] } },
      { language: 'zh-CN' },
    );
    expect(screen.getByText('先在上方添加输入再进行比较。')).toBeTruthy();
    expect(within(screen.getByTestId('if-condition-0-0')).queryByTestId('if-right')).toBeNull(); // "is empty" has no right side
  });
});

describe('the Question form', () => {
  it('switches to options (one branch each) and edits them', async () => {
    const form = await render(QuestionForm, { settings: { question: '', answer_type: 'text' } });
    fireEvent.change(screen.getByTestId('question-text'), { target: { value: 'Which size?' } });
    fireEvent.click(within(screen.getByTestId('question-type')).getByText('Options'));
    await waitFor(() =>
      expect(form.settings()).toMatchObject({ question: 'Which size?', answer_type: 'option', options: ['Option 1'] }),
    );
    fireEvent.click(screen.getByTestId('question-add-option'));
    fireEvent.change(screen.getByTestId('question-option-1'), { target: { value: 'Large' } });
    await waitFor(() => expect(form.settings()!.options).toEqual(['Option 1', 'Large']));
  });

  it('shows the problem the server found in the question', async () => {
    await render(
      QuestionForm,
      { settings: { question: '' } },
      { problems: { 'settings.question': 'Write the question.' } },
    );
    expect(screen.getByTestId('field-problem').textContent).toBe('Write the question.');
  });
});

describe('the Text form', () => {
  it('joins with a template or splits by separators', async () => {
    const form = await render(TextForm, { settings: { mode: 'concat', template: '' } });
    fireEvent.change(screen.getByTestId('text-template'), { target: { value: 'Hello, {{name}}!' } });
    await waitFor(() => expect(form.settings()).toEqual({ mode: 'concat', template: 'Hello, {{name}}!' }));
    fireEvent.click(screen.getByText('Split'));
    await waitFor(() => expect(form.settings()).toEqual({ mode: 'split', separators: [','] }));
  });
});

describe('the End form', () => {
  it('returns variables, or answers with a template completed from upstream outputs', async () => {
    const form = await render(EndForm, { settings: { terminate_plan: 'return_variables' } }, { upstream });
    expect(screen.getByText("The inputs above are the workflow's result.")).toBeTruthy();
    fireEvent.click(screen.getByText('Answer with text'));
    await waitFor(() => expect(form.settings()).toMatchObject({ terminate_plan: 'use_answer_content' }));
    const area = screen.getByTestId<HTMLTextAreaElement>('end-answer');
    area.focus();
    fireEvent.change(area, { target: { value: 'Weather in {{', selectionStart: 13, selectionEnd: 13 } });
    fireEvent.mouseDown(await screen.findByText('Start · city'));
    await waitFor(() => expect(form.settings()!.answer).toBe('Weather in {{start.city}}'));
    // Stored by node id, shown by node title; typing a title's reference stores the id.
    expect(area.value).toBe('Weather in {{Start.city}}');
    fireEvent.change(area, { target: { value: 'Weather in {{Start.city}} today' } });
    await waitFor(() => expect(form.settings()!.answer).toBe('Weather in {{start.city}} today'));
    fireEvent.click(screen.getByTestId('end-streaming'));
    await waitFor(() => expect(form.settings()!.streaming).toBe(false));
  });
});

describe('the Message form', () => {
  it('edits the message template and streaming', async () => {
    const form = await render(MessageForm, { settings: { template: '', streaming: true } }, { language: 'zh-CN' });
    fireEvent.change(screen.getByTestId('message-template'), { target: { value: '进度：{{start.city}}' } });
    await waitFor(() => expect(form.settings()).toEqual({ template: '进度：{{start.city}}', streaming: true }));
    expect(screen.getByText('边生成边流式输出')).toBeTruthy();
  });
});

describe('the Input form', () => {
  it('edits the prompt and the typed fields of the form the caller fills in', async () => {
    const form = await render(
      InputForm,
      { settings: { prompt: '', fields: [{ name: 'value', type: 'string', required: true }] } },
      { problems: { 'settings.fields.0.name': 'Use letters, digits and _ (not starting with a digit).' } },
    );
    expect(screen.getByTestId('field-problem').textContent).toContain('Use letters');
    fireEvent.change(screen.getByTestId('input-field-0-name'), { target: { value: 'email' } });
    fireEvent.click(screen.getByTestId('input-field-add'));
    await waitFor(() =>
      expect(form.settings()!.fields).toEqual([
        { name: 'email', type: 'string', required: true },
        { name: 'field2', type: 'string' },
      ]),
    );
  });
});

describe('the Variable aggregator form', () => {
  it('adds a group over the inputs and names it', async () => {
    const form = await render(AggregatorForm, { inputs: [input('a'), input('b')], settings: { groups: [] } });
    fireEvent.click(screen.getByTestId('aggregator-add'));
    await waitFor(() => expect(form.settings()).toEqual({ groups: [{ name: 'group1', variables: ['a', 'b'] }] }));
    fireEvent.change(screen.getByTestId('aggregator-name-0'), { target: { value: 'answer' } });
    await waitFor(() => expect(form.settings()).toEqual({ groups: [{ name: 'answer', variables: ['a', 'b'] }] }));
  });
});

describe('the Assign variable form', () => {
  it('chooses the scope', async () => {
    const form = await render(AssignForm, { settings: { scope: 'user' } });
    fireEvent.click(screen.getByText('App variable'));
    await waitFor(() => expect(form.settings()).toEqual({ scope: 'app' }));
  });
});

describe('the forms of Start, To JSON and From JSON', () => {
  it('explain what the node does, in both languages', async () => {
    await render(hintForm('to_json'), {});
    expect(screen.getByTestId('to_json-form').textContent).toContain('JSON string');
    cleanup();
    await render(hintForm('from_json'), {}, { language: 'zh-CN' });
    expect(screen.getByTestId('from_json-form').textContent).toContain('解析');
    cleanup();
    await render(hintForm('start'), {});
    expect(screen.getByTestId('start-form').textContent).toContain('Outputs');
  });
});
