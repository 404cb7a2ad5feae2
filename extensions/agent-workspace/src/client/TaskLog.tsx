// A task's log as people read it: what was asked, the plan, the agent's thinking, each tool call with its arguments
// and what it answered (folded), the files it wrote, its questions and answers, the summary. The task page and the
// replay page show it alike.
import { Collapse, Tag, Typography } from '@arco-design/web-react';
import { IconFile, IconQuestionCircle, IconTool, IconUser } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import type { MessageView } from './store.ts';

const pretty = (data: string) => {
  try {
    return JSON.stringify(JSON.parse(data), null, 2);
  } catch {
    return data;
  }
};
const block = {
  margin: 0,
  padding: 8,
  background: 'var(--color-fill-2)',
  borderRadius: 4,
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  maxHeight: 260,
  overflow: 'auto',
} as const;

export function TaskLog({
  messages,
  writing,
  onFile,
}: {
  messages: MessageView[];
  /** What the agent is writing now (not saved yet). */
  writing?: { step_index: number; text: string } | null;
  onFile?(fileId: string, name: string): void;
}) {
  const { t } = useTranslation('agent-workspace');
  const results = new Map(messages.filter((m) => m.kind === 'tool_result').map((m) => [m.call_id, m]));
  return (
    <div data-testid="task-log" style={{ display: 'flex', flexDirection: 'column', gap: 10 }}>
      {messages.map((m) => {
        if (m.kind === 'tool_result') return null;
        const step = m.step_index >= 0 ? t('log.step', { n: m.step_index + 1 }) : '';
        const who = m.expert ? (
          <Tag size="small" color="purple">
            {m.expert}
          </Tag>
        ) : null;
        if (m.kind === 'tool_call') {
          const r = results.get(m.call_id);
          return (
            <Collapse key={m.message_id} bordered={false} data-testid="task-tool-call">
              <Collapse.Item
                name={m.message_id}
                header={
                  <span style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
                    <IconTool />
                    {who}
                    <span>{t('log.called', { tool: m.tool_name })}</span>
                    {r ? (
                      <Tag size="small" color={r.is_error ? 'red' : 'green'}>
                        {t(r.is_error ? 'log.failed' : 'log.answered')}
                      </Tag>
                    ) : (
                      <Tag size="small" color="arcoblue">
                        {t('log.calling')}
                      </Tag>
                    )}
                  </span>
                }
              >
                <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{t('log.arguments')}</div>
                <pre style={block}>{pretty(m.data)}</pre>
                {r && (
                  <>
                    <div style={{ fontSize: 12, color: 'var(--color-text-3)', marginTop: 6 }}>{t('log.output')}</div>
                    <pre style={block} data-testid="task-tool-output">
                      {pretty(r.data)}
                    </pre>
                  </>
                )}
              </Collapse.Item>
            </Collapse>
          );
        }
        if (m.kind === 'file')
          return (
            <div
              key={m.message_id}
              style={{ display: 'flex', gap: 6, alignItems: 'center' }}
              data-testid="task-file-line"
            >
              <IconFile />
              {who}
              <span>{t('log.wrote')}</span>
              {onFile ? (
                <Typography.Text style={{ cursor: 'pointer' }} underline onClick={() => onFile(m.file_id, m.content)}>
                  {m.content}
                </Typography.Text>
              ) : (
                <strong>{m.content}</strong>
              )}
            </div>
          );
        return (
          <div key={m.message_id} data-testid={`task-line-${m.kind}`} data-kind={m.kind}>
            <div style={{ display: 'flex', gap: 6, alignItems: 'center', fontSize: 12, color: 'var(--color-text-3)' }}>
              {m.kind === 'user' ? <IconUser /> : m.kind === 'question' ? <IconQuestionCircle /> : null}
              <span>{t(`kind.${m.kind}`, { defaultValue: m.kind })}</span>
              {step && <span>· {step}</span>}
              {who}
            </div>
            <div
              style={{
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-word',
                ...(m.kind === 'summary'
                  ? { background: 'var(--color-fill-2)', padding: 10, borderRadius: 6 }
                  : m.kind === 'notice'
                    ? { color: 'var(--color-text-2)' }
                    : {}),
              }}
            >
              {m.content}
            </div>
          </div>
        );
      })}
      {writing?.text && (
        <div data-testid="task-writing" style={{ whiteSpace: 'pre-wrap', color: 'var(--color-text-2)' }}>
          {writing.text}
          <span className="tessera-caret">▍</span>
        </div>
      )}
    </div>
  );
}
