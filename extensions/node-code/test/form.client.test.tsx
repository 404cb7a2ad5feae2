import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderNodeForm } from '@tessera/ext-workflow/testing';
import enUS from '../src/locales/en-US.json';
import zhCN from '../src/locales/zh-CN.json';
import { CodeForm, SAMPLES } from '../src/client/form.tsx';

afterEach(cleanup);

const render = (settings: Record<string, unknown>, opts: { problems?: Record<string, string>; language?: 'en-US' | 'zh-CN' } = {}) => renderNodeForm({ extension: 'node-code', locales: { 'en-US': enUS, 'zh-CN': zhCN }, Form: CodeForm, param: { settings }, language: 'en-US', ...opts });

describe('the Code form', () => {
  it('switches the sample with the language while the code is untouched, then keeps what was written', async () => {
    const form = await render({ language: 'javascript', code: SAMPLES.javascript, timeout_ms: 10000, memory_mb: 64 });
    fireEvent.click(screen.getByTestId('code-language'));
    fireEvent.click(await screen.findByText('Python'));
    await waitFor(() => expect(form.settings()).toMatchObject({ language: 'python', code: SAMPLES.python }));
    expect(screen.getByText(/Standard library only/)).toBeTruthy();
    fireEvent.change(screen.getByTestId('code-editor'), { target: { value: 'def main(args):\n    return {"result": 1}\n' } });
    fireEvent.click(screen.getByTestId('code-language'));
    fireEvent.click(await screen.findByText('JavaScript'));
    await waitFor(() => expect(form.settings()).toMatchObject({ language: 'javascript', code: 'def main(args):\n    return {"result": 1}\n' }));
  });

  it('indents with Tab and keeps indentation on Enter', async () => {
    const form = await render({ language: 'javascript', code: 'function main() {' });
    const editor = screen.getByTestId('code-editor') as HTMLTextAreaElement;
    editor.setSelectionRange(17, 17);
    fireEvent.keyDown(editor, { key: 'Enter' });
    await waitFor(() => expect(form.settings()!.code).toBe('function main() {\n  '));
  });

  it('shows the problem with the code, in Chinese', async () => {
    await render({ language: 'javascript', code: '' }, { problems: { 'settings.code': 'Write the code with a function named main.' }, language: 'zh-CN' });
    expect(screen.getByTestId('field-problem').textContent).toBe('Write the code with a function named main.');
    expect(screen.getByText('恢复示例代码')).toBeTruthy();
  });
});
