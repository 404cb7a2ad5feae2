// A plugin's settings: name, description, server URL, auth (none, service token / API key, OAuth 2.0
// authorization code) and common parameters. Secrets show masked; leaving them masked keeps them.
import { Button, Form, Input, Radio, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fieldErrors, toast, useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PluginInfo } from './api.ts';
import { OAuthButton } from './OAuth.tsx';
import { UpdatePluginMeta } from '../shared/api.ts';

type Pair = { name: string; value: string };
const PLACES: [string, string][] = [
  ['4', 'header'],
  ['2', 'query'],
  ['3', 'body'],
];

export function SettingsForm({ spaceId, info }: { spaceId: string; info: PluginInfo }) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const qc = useQueryClient();
  const m = info.meta_info;
  const oauth = m.oauth_info ? (JSON.parse(m.oauth_info) as Record<string, string>) : {};
  const [name, setName] = useState(m.name);
  const [desc, setDesc] = useState(m.desc);
  const [url, setUrl] = useState(m.url);
  const [authType, setAuthType] = useState(m.auth_type[0] ?? 0);
  const [location, setLocation] = useState(m.location ?? 1);
  const [key, setKey] = useState(m.key ?? '');
  const [token, setToken] = useState(m.service_token ?? '');
  const [o, setO] = useState({
    client_id: oauth.client_id ?? '',
    client_secret: oauth.client_secret ?? '',
    client_url: oauth.client_url ?? '',
    authorization_url: oauth.authorization_url ?? '',
    scope: oauth.scope ?? '',
    authorization_content_type: oauth.authorization_content_type ?? 'application/x-www-form-urlencoded',
  });
  const [common, setCommon] = useState<Record<string, Pair[]>>(m.common_params ?? {});
  const [problem, setProblem] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () =>
      api.call(
        UpdatePluginMeta,
        {
          space_id: spaceId,
          plugin_id: m.plugin_id,
          name: name.trim(),
          desc,
          url: url.trim(),
          auth_type: [authType],
          ...(authType === 1 ? { location, key, service_token: token } : {}),
          ...(authType === 3 ? { oauth_info: JSON.stringify(o) } : {}),
          common_params: Object.fromEntries(
            Object.entries(common).map(([k, v]) => [k, v.filter((p) => p.name.trim())]),
          ),
        },
        {
          handled: fieldErrors(['name', 'url', 'key', 'service_token', 'oauth_info'], (f, msg) =>
            setProblem((p) => ({ ...p, [f]: msg })),
          ),
        },
      ),
    onSuccess: async () => {
      toast.success(t('settings.saved'));
      await qc.invalidateQueries({ queryKey: ['plugins'] });
    },
  });
  const err = (f: string) => (problem[f] ? { validateStatus: 'error' as const, help: problem[f] } : {});
  return (
    <Form layout="vertical" style={{ maxWidth: 720 }} data-testid="plugin-settings" onChange={() => setProblem({})}>
      <Form.Item label={t('form.name')} required {...err('name')}>
        <Input value={name} maxLength={100} onChange={setName} data-testid="plugin-settings-name" />
      </Form.Item>
      <Form.Item label={t('form.desc')}>
        <Input.TextArea value={desc} maxLength={2000} autoSize={{ minRows: 2, maxRows: 4 }} onChange={setDesc} />
      </Form.Item>
      <Form.Item label={t('form.url')} extra={t('form.urlHelp')} {...err('url')}>
        <Input
          value={url}
          placeholder="https://api.example.com/v1"
          onChange={setUrl}
          data-testid="plugin-settings-url"
        />
      </Form.Item>
      <Form.Item label={t('auth.title')}>
        <Radio.Group type="button" value={authType} onChange={setAuthType} data-testid="plugin-settings-auth">
          <Radio value={0}>{t('auth.none')}</Radio>
          <Radio value={1}>{t('auth.service')}</Radio>
          <Radio value={3}>{t('auth.oauth')}</Radio>
        </Radio.Group>
      </Form.Item>
      {authType === 1 && (
        <Space align="start" wrap>
          <Form.Item label={t('auth.location')}>
            <Select style={{ width: 120 }} value={location} onChange={setLocation}>
              <Select.Option value={1}>header</Select.Option>
              <Select.Option value={2}>query</Select.Option>
            </Select>
          </Form.Item>
          <Form.Item label={t('auth.key')} {...err('key')}>
            <Input
              style={{ width: 200 }}
              value={key}
              placeholder="Authorization / X-Api-Key"
              onChange={setKey}
              data-testid="plugin-settings-key"
            />
          </Form.Item>
          <Form.Item label={t('auth.token')} extra={t('auth.tokenHelp')} {...err('service_token')}>
            <Input.Password
              style={{ width: 300 }}
              value={token}
              onChange={setToken}
              data-testid="plugin-settings-token"
            />
          </Form.Item>
        </Space>
      )}
      {authType === 3 && (
        <div data-testid="plugin-settings-oauth">
          <Space align="start" wrap>
            <Form.Item label={t('oauth.clientId')} required {...err('oauth_info')}>
              <Input
                style={{ width: 260 }}
                value={o.client_id}
                onChange={(v) => setO({ ...o, client_id: v })}
                data-testid="plugin-oauth-client-id"
              />
            </Form.Item>
            <Form.Item label={t('oauth.clientSecret')} extra={t('auth.tokenHelp')}>
              <Input.Password
                style={{ width: 260 }}
                value={o.client_secret}
                onChange={(v) => setO({ ...o, client_secret: v })}
                data-testid="plugin-oauth-client-secret"
              />
            </Form.Item>
          </Space>
          <Form.Item label={t('oauth.authorizeUrl')} required>
            <Input
              value={o.client_url}
              placeholder="https://provider.example.com/oauth/authorize"
              onChange={(v) => setO({ ...o, client_url: v })}
            />
          </Form.Item>
          <Form.Item label={t('oauth.tokenUrl')} required>
            <Input
              value={o.authorization_url}
              placeholder="https://provider.example.com/oauth/token"
              onChange={(v) => setO({ ...o, authorization_url: v })}
            />
          </Form.Item>
          <Space align="start" wrap>
            <Form.Item label={t('oauth.scope')}>
              <Input style={{ width: 260 }} value={o.scope} onChange={(v) => setO({ ...o, scope: v })} />
            </Form.Item>
            <Form.Item label={t('oauth.contentType')}>
              <Select
                style={{ width: 260 }}
                value={o.authorization_content_type}
                onChange={(v) => setO({ ...o, authorization_content_type: v })}
              >
                <Select.Option value="application/x-www-form-urlencoded">
                  application/x-www-form-urlencoded
                </Select.Option>
                <Select.Option value="application/json">application/json</Select.Option>
              </Select>
            </Form.Item>
          </Space>
          {info.oauth_callback_url && (
            <Typography.Paragraph type="secondary" copyable={{ text: info.oauth_callback_url }}>
              {t('oauth.callback')}: <code>{info.oauth_callback_url}</code>
            </Typography.Paragraph>
          )}
          {m.auth_type[0] === 3 && (
            <OAuthButton spaceId={spaceId} pluginId={m.plugin_id} authorized={!!info.authorized} />
          )}
        </div>
      )}
      <Form.Item label={t('common.title')} extra={t('common.help')} style={{ marginTop: 12 }}>
        {PLACES.map(([place, label]) => (
          <div key={place} style={{ marginBottom: 6 }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {label}
            </Typography.Text>
            {(common[place] ?? []).map((p, i) => (
              <Space key={i} style={{ display: 'flex', marginTop: 4 }}>
                <Input
                  size="small"
                  style={{ width: 180 }}
                  value={p.name}
                  placeholder={t('params.name')}
                  onChange={(v) =>
                    setCommon({
                      ...common,
                      [place]: (common[place] ?? []).map((x, j) => (j === i ? { ...x, name: v } : x)),
                    })
                  }
                />
                <Input
                  size="small"
                  style={{ width: 260 }}
                  value={p.value}
                  placeholder={t('common.value')}
                  onChange={(v) =>
                    setCommon({
                      ...common,
                      [place]: (common[place] ?? []).map((x, j) => (j === i ? { ...x, value: v } : x)),
                    })
                  }
                />
                <Button
                  size="mini"
                  type="text"
                  status="danger"
                  icon={<IconDelete />}
                  aria-label={t('params.remove')}
                  onClick={() => setCommon({ ...common, [place]: (common[place] ?? []).filter((_, j) => j !== i) })}
                />
              </Space>
            ))}
            <Button
              size="mini"
              type="text"
              icon={<IconPlus />}
              onClick={() => setCommon({ ...common, [place]: [...(common[place] ?? []), { name: '', value: '' }] })}
            >
              {t('common.add')}
            </Button>
          </div>
        ))}
      </Form.Item>
      <Button type="primary" loading={save.isPending} onClick={() => save.mutate()} data-testid="plugin-settings-save">
        {t('settings.save')}
      </Button>
    </Form>
  );
}
