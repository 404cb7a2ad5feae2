import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render as renderPlain, screen, waitFor } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { useState } from 'react';
import { renderNodeForm } from '@tessera/ext-workflow/testing';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { CodeForm, PlainCodeEditor, SAMPLES } from '../src/client/form.tsx';

afterEach(cleanup);

const render = (
  settings: Record<string, unknown>,
  opts: { problems?: Record<string, string>; language?: 'en-US' | 'zh-CN' } = {},
) =>
  renderNodeForm({
    extension: 'node-code',
    locales: { 'en-US': enUS, 'zh-CN': zhCN },
    Form: CodeForm,
    param: { settings },
    language: 'en-US',
    ...opts,
  });

/** The CodeMirror view once the editor has loaded (it is imported when the form first opens). */
async function codeMirror(): Promise<EditorView> {
  await waitFor(() => expect(document.querySelector('[data-code-editor="codemirror"]')).toBeTruthy());
  const content = screen.getByTestId('code-editor');
  expect(content.classList.contains('cm-content')).toBe(true);
  return EditorView.findFromDOM(content)!;
}
/** Replaces the editor's text as typing would (a user transaction). */
function type(view: EditorView, text: string) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: 'input.type' });
}

describe('the Code form', () => {
  it('switches the sample with the language while the code is untouched, then keeps what was written', async () => {
    const form = await render({ language: 'javascript', code: SAMPLES.javascript, timeout_ms: 10000, memory_mb: 64 });
    const view = await codeMirror();
    expect(view.state.doc.toString()).toBe(SAMPLES.javascript);
    fireEvent.click(screen.getByTestId('code-language'));
    fireEvent.click(await screen.findByText('Python'));
    await waitFor(() => expect(form.settings()).toMatchObject({ language: 'python', code: SAMPLES.python }));
    await waitFor(() => expect(view.state.doc.toString()).toBe(SAMPLES.python));
    expect(screen.getByText(/Standard library only/)).toBeTruthy();
    type(view, 'def main(args):\n    return {"result": 1}\n');
    await waitFor(() => expect(form.settings()!.code).toBe('def main(args):\n    return {"result": 1}\n'));
    fireEvent.click(screen.getByTestId('code-language'));
    fireEvent.click(await screen.findByText('JavaScript'));
    await waitFor(() =>
      expect(form.settings()).toMatchObject({
        language: 'javascript',
        code: 'def main(args):\n    return {"result": 1}\n',
      }),
    );
  });

  it('highlights the code in its language', async () => {
    await render({ language: 'python', code: 'def main(args):\n    return {"result": 1}\n' });
    const view = await codeMirror();
    // Keywords and strings are styled spans, not plain text.
    await waitFor(() => {
      const styled = [...view.contentDOM.querySelectorAll('span[class]')].map((s) => s.textContent);
      expect(styled).toEqual(expect.arrayContaining(['def', 'return', '"result"']));
    });
  });

  it('without CodeMirror, the plain editor indents with Tab and keeps indentation on Enter', async () => {
    let code = 'function main() {';
    function Harness() {
      const [v, setV] = useState(code);
      return <PlainCodeEditor value={v} language="javascript" onChange={(x) => setV((code = x))} />;
    }
    renderPlain(<Harness />);
    const editor = screen.getByTestId<HTMLTextAreaElement>('code-editor');
    editor.setSelectionRange(17, 17);
    fireEvent.keyDown(editor, { key: 'Enter' });
    await waitFor(() => expect(code).toBe('function main() {\n  '));
  });

  it('shows the problem with the code, in Chinese', async () => {
    await render(
      { language: 'javascript', code: '' },
      { problems: { 'settings.code': 'Write the code with a function named main.' }, language: 'zh-CN' },
    );
    expect(screen.getByTestId('field-problem').textContent).toBe('Write the code with a function named main.');
    expect(screen.getByText('恢复示例代码')).toBeTruthy();
    await codeMirror();
    expect(document.querySelector('.tessera-code-error')).toBeTruthy();
  });
});
