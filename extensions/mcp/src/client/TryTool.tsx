// Try a tool of an MCP server: arguments as JSON (started from its schema), the answer.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, Typography } from '@arco-design/web-react';
import { useMutation } from '@tanstack/react-query';
import { SidePanel, useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpToolInfo } from '../shared/index.ts';
import type { ServerView } from './McpPage.tsx';
import { CallServerTool } from '../shared/api.ts';

/** An argument object to start from, from the tool's JSON Schema. */
function exampleArgs(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown }>;
  return Object.fromEntries(
    Object.entries(props).map(([k, p]) => [
      k,
      p.default ??
        ({ number: 0, integer: 0, boolean: false, array: [], object: {} } as Record<string, unknown>)[p.type ?? ''] ??
        '',
    ]),
  );
}

export function TryTool({
  spaceId,
  server,
  tool,
  onClose,
}: {
  spaceId: string;
  server: ServerView;
  tool: McpToolInfo;
  onClose(): void;
}) {
  const { t } = useTranslation('mcp');
  const api = useApi();
  const [args, setArgs] = useState(() => JSON.stringify(exampleArgs(tool.input_schema), null, 2));
  const [problem, setProblem] = useState('');
  const call = useMutation({
    mutationFn: (parsed: Record<string, unknown>) =>
      api.call(
        CallServerTool,
        { space_id: spaceId, server_id: server.server_id, tool: tool.name, arguments: parsed },
        { handled: () => true },
      ),
  });
  const run = () => {
    try {
      const parsed = JSON.parse(args || '{}');
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      setProblem('');
      call.mutate(parsed);
    } catch {
      setProblem(t('tools.badJson'));
    }
  };
  const r = call.data;
  return (
    <SidePanel visible title={t('tools.tryTitle', { name: tool.name })} onCancel={onClose} data-testid="mcp-try-panel">
      {tool.description && <Typography.Paragraph type="secondary">{tool.description}</Typography.Paragraph>}
      <Typography.Text>{t('tools.argsJson')}</Typography.Text>
      <Input.TextArea
        value={args}
        onChange={setArgs}
        autoSize={{ minRows: 4, maxRows: 14 }}
        style={{ fontFamily: 'monospace', fontSize: 12 }}
        data-testid="mcp-try-args"
      />
      {problem && <Typography.Text type="error">{problem}</Typography.Text>}
      <Button type="primary" style={{ marginTop: 8 }} loading={call.isPending} onClick={run} data-testid="mcp-try-run">
        {call.isPending ? t('tools.calling') : t('tools.call')}
      </Button>
      {call.isError && (
        <Alert type="error" style={{ marginTop: 8 }} content={messageOf(call.error)} data-testid="mcp-try-error" />
      )}
      {r && (
        <div style={{ marginTop: 12 }} data-testid="mcp-try-result" data-error={r.is_error}>
          <Alert
            type={r.is_error ? 'error' : 'success'}
            content={r.is_error ? t('tools.toolError') : t('tools.ok', { ms: r.duration_ms })}
          />
          <pre
            style={{
              fontSize: 12,
              background: 'var(--color-fill-2)',
              padding: 8,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
            data-testid="mcp-try-text"
          >
            {r.text}
          </pre>
          {r.structured !== undefined && (
            <pre style={{ fontSize: 12, background: 'var(--color-fill-2)', padding: 8 }}>
              {JSON.stringify(r.structured, null, 2)}
            </pre>
          )}
        </div>
      )}
    </SidePanel>
  );
}
