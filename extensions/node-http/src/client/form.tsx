// The HTTP request node's form: method and URL, query and headers, auth, body, timeout and retries.
import { Button, Input, InputNumber, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { FieldProblem, type NodeFormProps } from '@tessera/ext-workflow/client';
import { TemplateInput } from '@tessera/ext-workflow/widgets';
import { useTranslation } from 'react-i18next';

interface Pair {
  name: string;
  value: string;
}
type Auth =
  { type: 'none' } | { type: 'bearer'; token: string } | { type: 'header' | 'query'; name: string; value: string };
type Body =
  | { type: 'none' }
  | { type: 'json'; content: string }
  | { type: 'raw'; content: string; content_type?: string }
  | { type: 'form-data' | 'urlencoded'; fields: Pair[] }
  | { type: 'binary'; input: string; content_type?: string };
interface Settings {
  method?: string;
  url?: string;
  headers?: Pair[];
  query?: Pair[];
  auth?: Auth;
  body?: Body;
  timeout_ms?: number;
  retries?: number;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
const BODY_TYPES = ['none', 'json', 'raw', 'form-data', 'urlencoded', 'binary'] as const;

function Pairs({ pairs, onChange, testId }: { pairs: Pair[]; onChange(p: Pair[]): void; testId: string }) {
  const { t } = useTranslation('node-http');
  const set = (i: number, patch: Partial<Pair>) => onChange(pairs.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  return (
    <div data-testid={testId}>
      {pairs.map((p, i) => (
        <Space key={i} size={4} style={{ marginBottom: 4 }}>
          <Input
            size="small"
            style={{ width: 110 }}
            placeholder={t('name')}
            value={p.name}
            onChange={(name) => set(i, { name })}
            data-testid={`${testId}-${i}-name`}
          />
          <Input
            size="small"
            style={{ width: 170 }}
            placeholder={t('value')}
            value={p.value}
            onChange={(value) => set(i, { value })}
            data-testid={`${testId}-${i}-value`}
          />
          <Button
            size="mini"
            type="text"
            icon={<IconDelete />}
            aria-label={t('remove')}
            onClick={() => onChange(pairs.filter((_, j) => j !== i))}
          />
        </Space>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() => onChange([...pairs, { name: '', value: '' }])}
        data-testid={`${testId}-add`}
      >
        {t('add')}
      </Button>
    </div>
  );
}

const Label = ({ children }: { children: string }) => (
  <Typography.Text style={{ display: 'block', fontSize: 12, margin: '8px 0 4px' }}>{children}</Typography.Text>
);

export function HttpForm({ node, onSettings, upstream, problems }: NodeFormProps) {
  const { t } = useTranslation('node-http');
  const s = node.node_param.settings as Settings;
  const set = (patch: Partial<Settings>) => onSettings({ ...s, ...patch });
  const auth = s.auth ?? { type: 'none' };
  const body = s.body ?? { type: 'none' };
  const setBodyType = (type: (typeof BODY_TYPES)[number]) =>
    set({
      body:
        type === 'none'
          ? { type }
          : type === 'json'
            ? { type, content: '{}' }
            : type === 'raw'
              ? { type, content: '', content_type: 'text/plain' }
              : type === 'binary'
                ? { type, input: node.node_param.inputs[0]?.name ?? '' }
                : { type, fields: [] },
    });
  return (
    <div data-testid="http-form">
      <Space size={4} align="start" style={{ width: '100%' }}>
        <Select
          size="small"
          style={{ width: 96 }}
          value={s.method ?? 'GET'}
          onChange={(method) => set({ method })}
          options={METHODS}
          data-testid="http-method"
        />
        <TemplateInput
          value={s.url ?? ''}
          placeholder={t('url', { skipInterpolation: true })}
          node={node}
          upstream={upstream}
          minRows={1}
          maxRows={3}
          onChange={(url) => set({ url })}
          testId="http-url"
          error={!!problems['settings.url']}
          style={{ width: 250 }}
        />
      </Space>
      <FieldProblem message={problems['settings.url']} />
      <Label>{t('query')}</Label>
      <Pairs pairs={s.query ?? []} onChange={(query) => set({ query })} testId="http-query" />
      <Label>{t('headers')}</Label>
      <Pairs pairs={s.headers ?? []} onChange={(headers) => set({ headers })} testId="http-headers" />
      <Label>{t('auth')}</Label>
      <Select
        size="small"
        style={{ width: 180 }}
        value={auth.type}
        onChange={(type: Auth['type']) =>
          set({
            auth:
              type === 'none'
                ? { type }
                : type === 'bearer'
                  ? { type, token: '' }
                  : { type, name: type === 'header' ? 'X-API-Key' : 'api_key', value: '' },
          })
        }
        data-testid="http-auth"
      >
        {(['none', 'bearer', 'header', 'query'] as const).map((x) => (
          <Select.Option key={x} value={x}>
            {t(`authType.${x}`)}
          </Select.Option>
        ))}
      </Select>
      {auth.type === 'bearer' && (
        <Input.Password
          size="small"
          style={{ marginTop: 4 }}
          placeholder={t('token', { skipInterpolation: true })}
          value={auth.token}
          onChange={(token) => set({ auth: { ...auth, token } })}
          data-testid="http-auth-token"
        />
      )}
      {(auth.type === 'header' || auth.type === 'query') && (
        <Space size={4} style={{ marginTop: 4 }}>
          <Input
            size="small"
            style={{ width: 110 }}
            placeholder={t('name')}
            value={auth.name}
            onChange={(name) => set({ auth: { ...auth, name } })}
            data-testid="http-auth-name"
          />
          <Input.Password
            size="small"
            style={{ width: 170 }}
            placeholder={t('value')}
            value={auth.value}
            onChange={(value) => set({ auth: { ...auth, value } })}
            data-testid="http-auth-value"
          />
        </Space>
      )}
      <Label>{t('body')}</Label>
      <Select size="small" style={{ width: 180 }} value={body.type} onChange={setBodyType} data-testid="http-body-type">
        {BODY_TYPES.map((x) => (
          <Select.Option key={x} value={x}>
            {t(`bodyType.${x}`)}
          </Select.Option>
        ))}
      </Select>
      {(body.type === 'json' || body.type === 'raw') && (
        <TemplateInput
          value={body.content}
          node={node}
          upstream={upstream}
          minRows={3}
          onChange={(content) => set({ body: { ...body, content } })}
          testId="http-body-content"
          error={!!problems['settings.body.content']}
          style={{ marginTop: 4 }}
        />
      )}
      {body.type === 'raw' && (
        <Input
          size="small"
          style={{ marginTop: 4, width: 200 }}
          placeholder="Content-Type"
          value={body.content_type ?? 'text/plain'}
          onChange={(content_type) => set({ body: { ...body, content_type } })}
        />
      )}
      {(body.type === 'form-data' || body.type === 'urlencoded') && (
        <Pairs
          pairs={body.fields}
          onChange={(fields) => set({ body: { ...body, fields } })}
          testId="http-body-fields"
        />
      )}
      {body.type === 'binary' && (
        <Select
          size="small"
          style={{ width: 180, marginTop: 4 }}
          placeholder={t('binaryInput')}
          value={body.input || undefined}
          onChange={(input) => set({ body: { ...body, input } })}
          options={node.node_param.inputs.map((i) => i.name)}
          data-testid="http-body-input"
        />
      )}
      <FieldProblem
        message={problems['settings.body.content'] ?? problems['settings.body.input'] ?? problems['settings.body']}
      />
      <Space size={12} style={{ marginTop: 8 }}>
        <Space size={4}>
          <span style={{ fontSize: 12 }}>{t('timeout')}</span>
          <InputNumber
            size="small"
            style={{ width: 100 }}
            min={100}
            max={300000}
            value={s.timeout_ms ?? 30000}
            onChange={(v) => set({ timeout_ms: v ?? 30000 })}
            data-testid="http-timeout"
          />
        </Space>
        <Space size={4}>
          <span style={{ fontSize: 12 }}>{t('retries')}</span>
          <InputNumber
            size="small"
            style={{ width: 64 }}
            min={0}
            max={5}
            value={s.retries ?? 0}
            onChange={(v) => set({ retries: v ?? 0 })}
            data-testid="http-retries"
          />
        </Space>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6 }}>
        {t('hint', { skipInterpolation: true })}
      </Typography.Paragraph>
    </div>
  );
}
