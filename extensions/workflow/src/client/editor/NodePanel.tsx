// The right-hand panel of the selected node: title, inputs (literal or reference), the type's own
// settings form, declared outputs and the error policy.
import { Button, Collapse, Input, InputNumber, Select, Space, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CanvasNode, FieldDecl, InputBinding, ValueExpr } from '../../shared/schema.ts';
import type { NodeTypeClient, UpstreamOutput } from '../points.ts';

const FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'file'] as const;
type Param = CanvasNode['node_param'];

/** One input's value: typed literal, or a reference picked from the outputs of upstream nodes. */
export function ValueInput({ binding, upstream, onChange, testId }: { binding: InputBinding; upstream: UpstreamOutput[]; onChange(value: ValueExpr): void; testId?: string }) {
  const { t } = useTranslation('workflow');
  const v = binding.value;
  const refKey = v.kind === 'ref' ? `${v.node_id}.${v.path.join('.')}` : undefined;
  return (
    <Space size={4} style={{ width: '100%' }}>
      <Select
        size="small"
        style={{ width: 92 }}
        value={v.kind === 'ref' ? 'ref' : 'literal'}
        onChange={(kind) => onChange(kind === 'ref' ? { kind: 'ref', node_id: upstream[0]?.node_id ?? '', path: upstream[0] ? [upstream[0].field.name] : [] } : { kind: 'literal', value: '' })}
        data-testid={testId && `${testId}-kind`}
      >
        <Select.Option value="ref">{t('editor.ref')}</Select.Option>
        <Select.Option value="literal">{t('editor.literal')}</Select.Option>
      </Select>
      {v.kind === 'ref' ? (
        <Select
          size="small"
          style={{ width: 190 }}
          placeholder={t('editor.pickRef')}
          value={refKey}
          showSearch
          notFoundContent={t('editor.noUpstream')}
          onChange={(key: string) => {
            const [node_id, ...path] = key.split('.');
            onChange({ kind: 'ref', node_id, path });
          }}
          data-testid={testId && `${testId}-ref`}
        >
          {upstream.map((u) => (
            <Select.Option key={`${u.node_id}.${u.field.name}`} value={`${u.node_id}.${u.field.name}`}>
              {`${u.node_title} · ${u.field.name} (${u.field.type})`}
            </Select.Option>
          ))}
        </Select>
      ) : (
        <Input size="small" style={{ width: 190 }} value={v.kind === 'literal' ? String(v.value ?? '') : v.kind === 'template' ? v.template : ''} onChange={(value) => onChange({ kind: 'literal', value: literal(value, binding.type) })} data-testid={testId && `${testId}-literal`} />
      )}
    </Space>
  );
}

function literal(text: string, type: InputBinding['type']): unknown {
  if (type === 'integer' || type === 'number') return text === '' || Number.isNaN(Number(text)) ? text : Number(text);
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function Inputs({ param, upstream, onChange }: { param: Param; upstream: UpstreamOutput[]; onChange(inputs: InputBinding[]): void }) {
  const { t } = useTranslation('workflow');
  const set = (i: number, patch: Partial<InputBinding>) => onChange(param.inputs.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  return (
    <div data-testid="node-inputs">
      {param.inputs.map((b, i) => (
        <Space key={i} size={4} style={{ marginBottom: 6 }} align="center">
          <Input size="small" style={{ width: 90 }} value={b.name} onChange={(name) => set(i, { name })} data-testid={`input-${i}-name`} />
          <ValueInput binding={b} upstream={upstream} onChange={(value) => set(i, { value })} testId={`input-${i}`} />
          <Button size="mini" type="text" icon={<IconDelete />} aria-label={t('editor.remove')} onClick={() => onChange(param.inputs.filter((_, j) => j !== i))} />
        </Space>
      ))}
      <Button size="mini" type="text" icon={<IconPlus />} onClick={() => onChange([...param.inputs, { name: `input${param.inputs.length + 1}`, type: 'string', value: upstream[0] ? { kind: 'ref', node_id: upstream[0].node_id, path: [upstream[0].field.name] } : { kind: 'literal', value: '' } }])} data-testid="input-add">
        {t('editor.addInput')}
      </Button>
    </div>
  );
}

function Outputs({ outputs, onChange }: { outputs: FieldDecl[]; onChange(outputs: FieldDecl[]): void }) {
  const { t } = useTranslation('workflow');
  const set = (i: number, patch: Partial<FieldDecl>) => onChange(outputs.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <div data-testid="node-outputs">
      {outputs.map((f, i) => (
        <Space key={i} size={4} style={{ marginBottom: 6 }}>
          <Input size="small" style={{ width: 140 }} value={f.name} onChange={(name) => set(i, { name })} data-testid={`output-${i}-name`} />
          <Select size="small" style={{ width: 100 }} value={f.type} onChange={(type) => set(i, { type })} options={FIELD_TYPES.map((x) => ({ label: x, value: x }))} />
          <Button size="mini" type="text" icon={<IconDelete />} aria-label={t('editor.remove')} onClick={() => onChange(outputs.filter((_, j) => j !== i))} />
        </Space>
      ))}
      <Button size="mini" type="text" icon={<IconPlus />} onClick={() => onChange([...outputs, { name: `output${outputs.length + 1}`, type: 'string' }])} data-testid="output-add">
        {t('editor.addOutput')}
      </Button>
    </div>
  );
}

/** Settings as JSON, for node types without a form of their own. */
function JsonSettings({ settings, onChange }: { settings: Record<string, unknown>; onChange(s: Record<string, unknown>): void }) {
  const { t } = useTranslation('workflow');
  const [text, setText] = useState(() => JSON.stringify(settings, null, 2));
  const [error, setError] = useState('');
  useEffect(() => setText(JSON.stringify(settings, null, 2)), [settings]);
  return (
    <div>
      <Input.TextArea
        value={text}
        autoSize={{ minRows: 4, maxRows: 16 }}
        style={{ fontFamily: 'monospace', fontSize: 12 }}
        onChange={(v) => {
          setText(v);
          try {
            const parsed = JSON.parse(v);
            if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
            setError('');
            onChange(parsed);
          } catch {
            setError(t('editor.jsonInvalid'));
          }
        }}
        data-testid="node-settings-json"
      />
      {error && <Typography.Text type="error">{error}</Typography.Text>}
    </div>
  );
}

export function NodePanel({ node, client, typeLabel, upstream, problems, onChange, onDelete }: { node: CanvasNode; client?: NodeTypeClient; typeLabel: string; upstream: UpstreamOutput[]; problems: string[]; onChange(param: Param): void; onDelete(): void }) {
  const { t } = useTranslation('workflow');
  const param = node.node_param;
  const set = (patch: Partial<Param>) => onChange({ ...param, ...patch });
  const policy = param.error_policy ?? { retry: 0, on_error: 'throw' as const };
  const Form = client?.Form;
  return (
    <div data-testid="node-panel" data-node-id={node.node_id} style={{ padding: 12, overflow: 'auto', height: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">{typeLabel}</Typography.Text>
        <Button size="mini" status="danger" type="text" icon={<IconDelete />} onClick={onDelete} data-testid="node-delete">
          {t('delete')}
        </Button>
      </Space>
      <Input value={param.title ?? ''} placeholder={node.node_id} onChange={(title) => set({ title })} style={{ margin: '8px 0' }} data-testid="node-title" />
      {problems.map((p) => (
        <Typography.Paragraph key={p} type="error" style={{ fontSize: 12, margin: '0 0 6px' }} data-testid="node-problem">
          {p}
        </Typography.Paragraph>
      ))}
      <Collapse defaultActiveKey={['inputs', 'settings', 'outputs']} bordered={false}>
        <Collapse.Item name="inputs" header={t('editor.inputs')}>
          <Inputs param={param} upstream={upstream} onChange={(inputs) => set({ inputs })} />
        </Collapse.Item>
        <Collapse.Item name="settings" header={t('editor.settings')}>
          {Form ? <Form node={node} upstream={upstream} onSettings={(settings) => set({ settings })} /> : <JsonSettings settings={param.settings} onChange={(settings) => set({ settings })} />}
        </Collapse.Item>
        <Collapse.Item name="outputs" header={t('editor.outputs')}>
          <Outputs outputs={param.outputs} onChange={(outputs) => set({ outputs })} />
        </Collapse.Item>
        <Collapse.Item name="errors" header={t('editor.errorPolicy')}>
          <Space direction="vertical" size={6} data-testid="node-error-policy">
            <Space>
              <span style={{ width: 90, display: 'inline-block' }}>{t('editor.timeout')}</span>
              <InputNumber size="small" min={1} max={3_600_000} placeholder="ms" value={policy.timeout_ms} onChange={(v) => set({ error_policy: { ...policy, timeout_ms: v || undefined } })} />
            </Space>
            <Space>
              <span style={{ width: 90, display: 'inline-block' }}>{t('editor.retry')}</span>
              <InputNumber size="small" min={0} max={10} value={policy.retry} onChange={(v) => set({ error_policy: { ...policy, retry: v ?? 0 } })} />
            </Space>
            <Space>
              <span style={{ width: 90, display: 'inline-block' }}>{t('editor.onError')}</span>
              <Select size="small" style={{ width: 180 }} value={policy.on_error} onChange={(on_error) => set({ error_policy: { ...policy, on_error } })} data-testid="node-on-error">
                <Select.Option value="throw">{t('editor.onErrorThrow')}</Select.Option>
                <Select.Option value="default">{t('editor.onErrorDefault')}</Select.Option>
                <Select.Option value="branch">{t('editor.onErrorBranch')}</Select.Option>
              </Select>
            </Space>
          </Space>
        </Collapse.Item>
      </Collapse>
    </div>
  );
}
