// Try an API of the draft with given inputs: the real request and response; take the response's shape
// as the API's response parameters; keep the call as its example.
import { Alert, Button, Checkbox, Input, Space, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SidePanel, toast, useApi, useRegistry } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiDebugSections } from '../shared/index.ts';
import type { ApiInfo, DebugResult, PluginInfo } from './api.ts';
import { OAuthButton } from './OAuth.tsx';
import { exampleInput, typeName } from './ParamsEditor.tsx';
import { DebugApi, UpdateApi } from '../shared/api.ts';

export function DebugPanel({
  spaceId,
  info,
  api: target,
  onClose,
}: {
  spaceId: string;
  info: PluginInfo;
  api: ApiInfo;
  onClose(): void;
}) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const qc = useQueryClient();
  const [input, setInput] = useState(
    () => target.debug_example?.req_example ?? JSON.stringify(exampleInput(target.request_params), null, 2),
  );
  const [keep, setKeep] = useState(false);
  const sections = useRegistry(ApiDebugSections);
  const [result, setResult] = useState<DebugResult | undefined>();
  const run = useMutation({
    mutationFn: () =>
      api.call(DebugApi, {
        space_id: spaceId,
        plugin_id: target.plugin_id,
        api_id: target.api_id,
        parameters: input,
        save_example: keep,
      }),
    onSuccess: async (r) => {
      setResult(r);
      await qc.invalidateQueries({ queryKey: ['plugins', 'info'] });
    },
  });
  const adopt = useMutation({
    mutationFn: () =>
      api.call(UpdateApi, {
        space_id: spaceId,
        plugin_id: target.plugin_id,
        api_id: target.api_id,
        response_params: result!.response_params,
      }),
    onSuccess: async () => {
      toast.success(t('debug.adopted'));
      await qc.invalidateQueries({ queryKey: ['plugins', 'info'] });
    },
  });
  const pretty = (s: string) => {
    try {
      return JSON.stringify(JSON.parse(s), null, 2);
    } catch {
      return s;
    }
  };
  return (
    <SidePanel visible title={t('debug.title', { name: target.name })} onCancel={onClose} data-testid="api-debug-panel">
      <Typography.Text type="secondary">{t('debug.params')}</Typography.Text>
      <div style={{ fontSize: 12, margin: '4px 0' }}>
        {target.request_params.map((p) => (
          <Tag key={p.name} size="small" style={{ marginRight: 4 }}>
            {p.name}: {typeName(p.type)}
            {p.is_required ? ' *' : ''}
          </Tag>
        ))}
      </div>
      <Input.TextArea
        value={input}
        onChange={setInput}
        autoSize={{ minRows: 4, maxRows: 14 }}
        style={{ fontFamily: 'monospace', fontSize: 12 }}
        data-testid="api-debug-input"
      />
      <Space style={{ marginTop: 8 }}>
        <Button type="primary" loading={run.isPending} onClick={() => run.mutate()} data-testid="api-debug-run">
          {run.isPending ? t('debug.running') : t('debug.run')}
        </Button>
        <Checkbox checked={keep} onChange={setKeep}>
          {t('debug.keep')}
        </Checkbox>
      </Space>
      {result?.needs_auth && (
        <div style={{ marginTop: 12 }}>
          <Alert type="warning" content={t('oauth.needed')} />
          <OAuthButton spaceId={spaceId} pluginId={target.plugin_id} authorized={!!info.authorized} />
        </div>
      )}
      {result && !result.needs_auth && (
        <div style={{ marginTop: 12 }} data-testid="api-debug-result" data-success={result.success}>
          {result.success ? (
            <Alert type="success" content={t('debug.ok', { status: result.status_code, ms: result.duration_ms })} />
          ) : (
            <Alert type="error" content={result.reason} data-testid="api-debug-error" />
          )}
          {result.request && (
            <details open>
              <summary>{t('debug.request')}</summary>
              <pre
                data-testid="api-debug-request"
                style={{
                  fontSize: 11,
                  background: 'var(--color-fill-2)',
                  padding: 8,
                  whiteSpace: 'pre-wrap',
                  wordBreak: 'break-all',
                }}
              >
                {`${result.request.method} ${result.request.url}\n${Object.entries(result.request.headers)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join('\n')}${result.request.body ? `\n\n${pretty(result.request.body)}` : ''}`}
              </pre>
            </details>
          )}
          {result.response && (
            <details open>
              <summary>{t('debug.response', { status: result.response.status })}</summary>
              <pre
                data-testid="api-debug-response"
                style={{
                  fontSize: 11,
                  background: 'var(--color-fill-2)',
                  padding: 8,
                  maxHeight: 320,
                  overflow: 'auto',
                  whiteSpace: 'pre-wrap',
                  wordBreak: 'break-all',
                }}
              >
                {pretty(result.response.body)}
              </pre>
            </details>
          )}
          {result.success && !!result.response_params.length && (
            <Button size="small" loading={adopt.isPending} onClick={() => adopt.mutate()} data-testid="api-debug-adopt">
              {t('debug.adopt', { n: result.response_params.length })}
            </Button>
          )}
        </div>
      )}
      {[...sections]
        .sort((a, b) => (a.order ?? 100) - (b.order ?? 100))
        .map((s) => (
          <s.Component
            key={s.key}
            spaceId={spaceId}
            pluginId={target.plugin_id}
            apiId={target.api_id}
            apiName={target.name}
            responseParams={target.response_params}
          />
        ))}
    </SidePanel>
  );
}
