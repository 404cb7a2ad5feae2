// The code node's form: the language, the code (CodeMirror, loaded when the form first opens; a plain
// monospace editor until then), limits.
import { Button, InputNumber, Select, Space, Typography } from '@arco-design/web-react';
import { FieldProblem, type NodeFormProps } from '@tessera/ext-workflow/client';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MountedEditor } from './codemirror.ts';
import { SAMPLES, type Language } from './samples.ts';

export { SAMPLES };

const INDENT: Record<Language, string> = { javascript: '  ', typescript: '  ', python: '    ' };

type CodeMirrorModule = typeof import('./codemirror.ts');
let codemirror: Promise<CodeMirrorModule> | undefined;
/** The CodeMirror module, imported once, on first use. */
export function loadCodeMirror(): Promise<CodeMirrorModule> {
  return (codemirror ??= import('./codemirror.ts').catch((e) => {
    codemirror = undefined; // a failed chunk load is tried again next time
    throw e;
  }));
}

/** CodeMirror with the language's highlighting once loaded; the plain editor until then (or if it cannot load). */
function CodeEditor(props: { value: string; onChange(v: string): void; language: Language; error?: boolean }) {
  const { value, onChange, language, error = false } = props;
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<MountedEditor | null>(null);
  const change = useRef(onChange);
  change.current = onChange;
  const latest = useRef({ value, language, error });
  latest.current = { value, language, error };
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let gone = false;
    loadCodeMirror().then(
      (m) => {
        if (gone || !host.current) return;
        editor.current = m.mountCodeEditor(host.current, {
          ...latest.current,
          testId: 'code-editor',
          onChange: (v) => change.current(v),
        });
        setReady(true);
      },
      () => undefined, // stays on the plain editor
    );
    return () => {
      gone = true;
      editor.current?.destroy();
      editor.current = null;
    };
  }, []);
  useEffect(() => editor.current?.setValue(value), [value, ready]);
  useEffect(() => editor.current?.setLanguage(language), [language, ready]);
  useEffect(() => editor.current?.setError(error), [error, ready]);
  return (
    <div className="nodrag nowheel" data-code-editor={ready ? 'codemirror' : 'plain'}>
      <div ref={host} />
      {!ready && <PlainCodeEditor {...props} />}
    </div>
  );
}

/** A plain code editor: Tab indents, Enter keeps the indentation of the line. */
export function PlainCodeEditor({
  value,
  onChange,
  language,
  error,
}: {
  value: string;
  onChange(v: string): void;
  language: Language;
  error?: boolean;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const replace = (el: HTMLTextAreaElement, text: string) => {
    const { selectionStart: a, selectionEnd: b } = el;
    const next = value.slice(0, a) + text + value.slice(b);
    onChange(next);
    requestAnimationFrame(() => el.setSelectionRange(a + text.length, a + text.length));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const el = e.currentTarget;
    if (e.key === 'Tab' && !e.shiftKey) {
      e.preventDefault();
      replace(el, INDENT[language]);
    } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      const line = value.slice(0, el.selectionStart).split('\n').pop() ?? '';
      const indent = /^\s*/.exec(line)![0] + (/[:{[(]\s*$/.test(line) ? INDENT[language] : '');
      e.preventDefault();
      replace(el, `\n${indent}`);
    }
  };
  const lines = value.split('\n').length;
  return (
    <div
      style={{
        display: 'flex',
        border: `1px solid ${error ? 'rgb(var(--danger-6))' : 'var(--color-border-2)'}`,
        borderRadius: 4,
        background: 'var(--color-fill-1)',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
        fontSize: 12,
        lineHeight: '18px',
      }}
    >
      <pre
        aria-hidden
        style={{
          margin: 0,
          padding: '6px 6px',
          textAlign: 'right',
          color: 'var(--color-text-4)',
          userSelect: 'none',
          minWidth: 28,
        }}
      >
        {Array.from({ length: lines }, (_, i) => i + 1).join('\n')}
      </pre>
      <textarea
        ref={ref}
        className="nodrag nowheel"
        spellCheck={false}
        value={value}
        rows={Math.min(Math.max(lines, 8), 30)}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        style={{
          flex: 1,
          border: 'none',
          outline: 'none',
          resize: 'vertical',
          padding: 6,
          background: 'transparent',
          font: 'inherit',
          lineHeight: 'inherit',
          whiteSpace: 'pre',
          overflowX: 'auto',
          color: 'var(--color-text-1)',
        }}
        data-testid="code-editor"
      />
    </div>
  );
}

export function CodeForm({ node, onSettings, problems }: NodeFormProps) {
  const { t } = useTranslation('node-code');
  const s = node.node_param.settings as { language?: Language; code?: string; timeout_ms?: number; memory_mb?: number };
  const language = s.language ?? 'javascript';
  const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
  const code = s.code ?? '';
  // Switching language replaces the code only while it is still a sample (or empty).
  const untouched = !code.trim() || Object.values(SAMPLES).includes(code);
  return (
    <div data-testid="code-form">
      <Space size={8} style={{ marginBottom: 6 }}>
        <Select
          size="small"
          style={{ width: 130 }}
          value={language}
          onChange={(l: Language) => set({ language: l, ...(untouched ? { code: SAMPLES[l] } : {}) })}
          data-testid="code-language"
        >
          <Select.Option value="javascript">JavaScript</Select.Option>
          <Select.Option value="typescript">TypeScript</Select.Option>
          <Select.Option value="python">Python</Select.Option>
        </Select>
        <Button size="mini" type="text" onClick={() => set({ code: SAMPLES[language] })} data-testid="code-sample">
          {t('sample')}
        </Button>
      </Space>
      <CodeEditor
        value={code}
        language={language}
        onChange={(c) => set({ code: c })}
        error={!!problems['settings.code']}
      />
      <FieldProblem message={problems['settings.code']} />
      <Space size={12} style={{ marginTop: 8 }}>
        <Space size={4}>
          <span style={{ fontSize: 12 }}>{t('timeout')}</span>
          <InputNumber
            size="small"
            style={{ width: 100 }}
            min={10}
            max={600000}
            value={s.timeout_ms ?? 10000}
            onChange={(v) => set({ timeout_ms: v ?? 10000 })}
            data-testid="code-timeout"
          />
        </Space>
        <Space size={4}>
          <span style={{ fontSize: 12 }}>{t('memory')}</span>
          <InputNumber
            size="small"
            style={{ width: 80 }}
            min={8}
            max={4096}
            value={s.memory_mb ?? 64}
            onChange={(v) => set({ memory_mb: v ?? 64 })}
            data-testid="code-memory"
          />
        </Space>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6 }}>
        {t(language === 'python' ? 'hintPython' : 'hint')}
      </Typography.Paragraph>
    </div>
  );
}
