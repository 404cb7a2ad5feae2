// The Api node's form and the OAuth interrupt in the run panel (loaded when first drawn).
import { Alert, Button, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { NodeFormProps } from '@tessera/ext-workflow/client';
import { useTranslation } from 'react-i18next';
import { usePublishedPlugins } from './catalogue.tsx';
import { useAuthorise } from './OAuth.tsx';
import { typeName } from './ParamsEditor.tsx';
import { ListPublished } from '../shared/api.ts';

export function ApiNodeForm({ node, onSettings, spaceId }: NodeFormProps) {
  const { t } = useTranslation('plugins');
  const s = node.node_param.settings as {
    plugin_id?: string;
    api_id?: string;
    api_name?: string;
    plugin_name?: string;
    plugin_version?: string;
  };
  const api = useApi();
  const published = usePublishedPlugins(spaceId);
  const plugin = published.data?.plugin_list.find((p) => p.id === s.plugin_id);
  const info = plugin?.plugin_apis.find((a) => a.api_id === s.api_id);
  const versions = useQuery({
    queryKey: ['plugins', 'versions', s.plugin_id],
    enabled: !!s.plugin_id,
    queryFn: () =>
      api.call(ListPublished, { space_id: spaceId, plugin_id: s.plugin_id ?? '' }, { handled: () => true }),
  });
  return (
    <div data-testid="plugin-node-form">
      <Typography.Text>
        <b>{s.plugin_name}</b> / {s.api_name}
      </Typography.Text>
      {published.data && !info && <Alert type="warning" style={{ marginTop: 6 }} content={t('node.gone')} />}
      {info?.desc && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {info.desc}
        </Typography.Paragraph>
      )}
      <div style={{ marginTop: 6 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('node.version')}
        </Typography.Text>
        <Select
          size="small"
          value={s.plugin_version ?? ''}
          onChange={(v) => onSettings({ ...s, plugin_version: v })}
          data-testid="plugin-node-version"
        >
          <Select.Option value="">{t('node.latest')}</Select.Option>
          {versions.data?.versions.map((v) => (
            <Select.Option key={v.version_name} value={v.version_name}>
              {v.version_name}
            </Select.Option>
          ))}
        </Select>
        <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', marginTop: 4 }}>
          {t('node.testRunsDraft')}
        </Typography.Text>
      </div>
      {info && (
        <div style={{ marginTop: 6 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('node.params')}
          </Typography.Text>
          <div>
            {info.parameters.map((p) => (
              <Tag key={p.name} size="small" style={{ margin: 2 }}>
                {p.name}: {typeName(p.type)}
                {p.is_required ? ' *' : ''}
              </Tag>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

/** The run waits for the user's OAuth grant: authorise in a new window, then continue the run. */
export function OAuthInterrupt({
  data,
  spaceId,
  onAnswer,
}: {
  data: Record<string, unknown>;
  spaceId: string;
  onAnswer(data: string): void;
}) {
  const { t } = useTranslation('plugins');
  const { start, waiting } = useAuthorise(spaceId, String(data.plugin_id ?? ''), () => onAnswer('authorized'));
  return (
    <div data-testid="plugin-oauth-interrupt">
      <Alert type="warning" content={t('oauth.interrupt', { name: String(data.plugin_name ?? '') })} />
      <Space style={{ marginTop: 8 }}>
        <Button
          type="primary"
          loading={waiting}
          onClick={() => void start(String(data.authorize_url ?? ''))}
          data-testid="plugin-oauth-interrupt-authorise"
        >
          {waiting ? t('oauth.waiting') : t('oauth.authorise')}
        </Button>
        <Button onClick={() => onAnswer('authorized')} data-testid="plugin-oauth-interrupt-continue">
          {t('oauth.continue')}
        </Button>
      </Space>
    </div>
  );
}
