import { defineExtension, lazyView } from '@tessera/sdk/client';
import { NodeTypeClients, oneLine } from '@tessera/ext-workflow/client';
import { IconCodeSquare } from '@arco-design/web-react/icon';
import { SAMPLES } from './samples.ts';

// The form (and CodeMirror after it) loads when a Code node is first opened.
const CodeForm = lazyView(() => import('./form.tsx').then((m) => m.CodeForm));

export default defineExtension({
  id: 'node-code',
  register(ctx) {
    ctx.i18n({ 'en-US': () => import('../locales/en-US.json'), 'zh-CN': () => import('../locales/zh-CN.json') });
    ctx.register(NodeTypeClients, {
      key: 'code',
      icon: IconCodeSquare,
      color: '#86909C',
      defaults: () => ({
        inputs: [{ name: 'input', type: 'string', value: { kind: 'literal', value: '' } }],
        outputs: [{ name: 'result', type: 'string' }],
        settings: { language: 'javascript', code: SAMPLES.javascript, timeout_ms: 10_000, memory_mb: 64 },
      }),
      Form: CodeForm,
      // The language, and the first line of the code that is not a comment.
      summary: (n) => {
        const s = n.node_param.settings as { language?: string; code?: string };
        const first = (s.code ?? '').split('\n').find((l) => l.trim() && !/^\s*(\/\/|#)/.test(l));
        return oneLine(
          `${({ javascript: 'JavaScript', typescript: 'TypeScript', python: 'Python' } as Record<string, string>)[s.language ?? 'javascript'] ?? s.language}${first ? ` · ${first.trim()}` : ''}`,
        );
      },
    });
  },
});
