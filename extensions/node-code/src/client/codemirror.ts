// The code node's editor proper: CodeMirror 6 with the language's highlighting, indentation and
// bracket matching. Imported on demand (the first time a code node's form opens), never at start.
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from '@codemirror/language';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';

export type CodeLanguage = 'javascript' | 'typescript' | 'python';

export interface MountedEditor {
  /** Replaces the text when it differs from what the editor holds (a sample, undo from outside). */
  setValue(text: string): void;
  setLanguage(language: CodeLanguage): void;
  setError(error: boolean): void;
  destroy(): void;
}

function languageOf(language: CodeLanguage) {
  const support = language === 'python' ? python() : javascript({ typescript: language === 'typescript' });
  return [support, indentUnit.of(language === 'python' ? '    ' : '  ')];
}

const theme = EditorView.theme({
  '&': {
    fontSize: '12px',
    border: '1px solid var(--color-border-2)',
    borderRadius: '4px',
    background: 'var(--color-fill-1)',
    maxHeight: '540px',
  },
  '&.cm-focused': { outline: 'none', borderColor: 'rgb(var(--primary-6))' },
  '&.tessera-code-error': { borderColor: 'rgb(var(--danger-6))' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
    lineHeight: '18px',
    minHeight: '150px',
  },
  '.cm-gutters': { background: 'transparent', border: 'none', color: 'var(--color-text-4)' },
  '.cm-activeLine': { background: 'rgba(var(--primary-6), .05)' },
});

export function mountCodeEditor(
  parent: HTMLElement,
  opts: { value: string; language: CodeLanguage; error: boolean; testId: string; onChange(text: string): void },
): MountedEditor {
  const lang = new Compartment();
  let quiet = false;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.value,
      extensions: [
        lineNumbers(),
        history(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        lang.of(languageOf(opts.language)),
        theme,
        EditorView.contentAttributes.of({ 'data-testid': opts.testId, 'aria-label': 'code', spellcheck: 'false' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !quiet) opts.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  const mounted: MountedEditor = {
    setValue(text) {
      if (view.state.doc.toString() === text) return;
      quiet = true;
      try {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      } finally {
        quiet = false;
      }
    },
    setLanguage(language) {
      view.dispatch({ effects: lang.reconfigure(languageOf(language)) });
    },
    setError(error) {
      view.dom.classList.toggle('tessera-code-error', error);
    },
    destroy: () => view.destroy(),
  };
  mounted.setError(opts.error);
  return mounted;
}
