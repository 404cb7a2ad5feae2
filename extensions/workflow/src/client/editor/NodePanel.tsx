// The right-hand panel of the selected node: title, inputs (literal or reference), the type's own
// settings form, declared outputs and the error policy.
import { Button, Collapse, Input, InputNumber, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { CanvasNode, FieldDecl, InputBinding } from '@tessera/workflow-sdk';
import type { NodeTypeClient, UpstreamOutput } from '../points.ts';
import {
  FIELD_TYPES,
  FORM_WIDGETS,
  FieldProblem,
  FieldsEditor,
  linesFor,
  useTypeLabel,
  useVariables,
  ValueInput,
  type VariableRef,
} from '../widgets.tsx';

export { ValueInput };

type Param = CanvasNode['node_param'];

/**
 * The node's title: typing re-renders this input alone (nothing else in the panel shows the title),
 * the edit reaches the canvas with the panel's next hand-over. An outside change (undo) replaces the text.
 */
function TitleInput({
  value,
  placeholder,
  onType,
  sync,
}: {
  value: string;
  placeholder: string;
  onType(title: string): void;
  /** Changes when the editor took the panel's edits at once (undo, redo, a save): the canvas may now say otherwise. */ sync: number;
}) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value, sync]);
  // A plain input in the library's look: typing re-renders this element alone (the library's Input
  // adds wrappers and handlers to each keystroke, which counts with hundreds of cards on the page).
  return (
    <input
      className="arco-input arco-input-size-default"
      value={text}
      placeholder={placeholder}
      onChange={(e) => {
        const title = e.target.value;
        sent.current = title;
        setText(title);
        onType(title);
      }}
      style={{ margin: '8px 0', width: '100%' }}
      data-testid="node-title"
    />
  );
}

/** How long panel edits wait before they reach the canvas (and how often they do while typing). */
export const COMMIT_MS = 300;

/** A problem the server found in a node, and the field it names. */
export interface NodeProblem {
  field?: string;
  message: string;
  /** A warning does not stop a run (a conversion that may fail); shown, not marked red. */
  level?: 'warning';
}

/** A reference takes the type of the output it points at. */
function typeOfRef(value: InputBinding['value'], upstream: UpstreamOutput[]): Partial<InputBinding> {
  if (value.kind !== 'ref' || value.path.length !== 1) return {};
  const field = upstream.find((u) => u.node_id === value.node_id && u.field.name === value.path[0])?.field;
  return field ? { type: field.type, ...(field.items ? { items: field.items } : {}) } : {};
}

function Inputs({
  param,
  upstream,
  variables,
  onChange,
  problems,
}: {
  param: Param;
  upstream: UpstreamOutput[];
  variables: VariableRef[];
  onChange(inputs: InputBinding[]): void;
  problems: Record<string, string>;
}) {
  const { t } = useTranslation('workflow');
  const typeLabel = useTypeLabel();
  const set = (i: number, patch: Partial<InputBinding>) =>
    onChange(param.inputs.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  return (
    <div data-testid="node-inputs">
      {param.inputs.map((b, i) => (
        <div key={i} style={{ marginBottom: 6 }} data-testid={`input-${i}`}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
            <Input
              size="small"
              style={{ width: 84, flex: 'none' }}
              value={b.name}
              status={problems[`inputs.${b.name}`] ? 'error' : undefined}
              onChange={(name) => set(i, { name })}
              data-testid={`input-${i}-name`}
            />
            <Select
              size="small"
              style={{ width: 84, flex: 'none' }}
              value={b.type}
              onChange={(type) => set(i, { type })}
              options={FIELD_TYPES.map((x) => ({ label: typeLabel(x), value: x }))}
              data-testid={`input-${i}-type`}
            />
            <ValueInput
              binding={b}
              upstream={upstream}
              variables={variables}
              onChange={(value) => set(i, { value, ...typeOfRef(value, upstream) })}
              testId={`input-${i}`}
              error={!!problems[`inputs.${b.name}`]}
            />
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('editor.remove')}
              onClick={() => onChange(param.inputs.filter((_, j) => j !== i))}
            />
          </div>
          <FieldProblem message={problems[`inputs.${b.name}`]} />
        </div>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() => {
          const value: InputBinding['value'] = upstream[0]
            ? { kind: 'ref', node_id: upstream[0].node_id, path: [upstream[0].field.name] }
            : { kind: 'literal', value: '' };
          onChange([
            ...param.inputs,
            { name: `input${param.inputs.length + 1}`, type: 'string', value, ...typeOfRef(value, upstream) },
          ]);
        }}
        data-testid="input-add"
      >
        {t('editor.addInput')}
      </Button>
    </div>
  );
}

/** Settings as JSON, for node types without a form of their own. */
function JsonSettings({
  settings,
  onChange,
  testId = 'node-settings-json',
}: {
  settings: Record<string, unknown>;
  onChange(s: Record<string, unknown>): void;
  testId?: string;
}) {
  const { t } = useTranslation('workflow');
  const [text, setText] = useState(() => JSON.stringify(settings, null, 2));
  const [error, setError] = useState('');
  const serialized = JSON.stringify(settings, null, 2);
  // Follows changes made elsewhere (undo), keeping what is being typed when it means the same.
  useEffect(
    () =>
      setText((cur) => {
        try {
          if (JSON.stringify(JSON.parse(cur)) === JSON.stringify(JSON.parse(serialized))) return cur;
        } catch {
          /* the text being typed is not JSON yet: replace it */
        }
        return serialized;
      }),
    [serialized],
  );
  return (
    <div>
      <Input.TextArea
        value={text}
        rows={linesFor(text, 4, 16)}
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
        data-testid={testId}
      />
      {error && <Typography.Text type="error">{error}</Typography.Text>}
    </div>
  );
}

export function NodePanel({
  node,
  client,
  typeLabel,
  upstream,
  body = [],
  problems,
  onChange,
  onDelete,
  spaceId,
  workflowId,
  computedOutputs,
  entry = false,
  pending,
}: {
  node: CanvasNode;
  /** Set while edits wait to reach the canvas: calling it applies them at once. */ pending?: MutableRefObject<
    (() => void) | null
  >;
  /** Start: it has no inputs; its outputs are the workflow's inputs. */ entry?: boolean;
  client?: NodeTypeClient;
  typeLabel: string;
  upstream: UpstreamOutput[];
  body?: UpstreamOutput[];
  problems: NodeProblem[];
  onChange(param: Param): void;
  onDelete(): void;
  spaceId: string;
  workflowId: string;
  /** The outputs the type computes (from its settings); undefined when the user declares them. */ computedOutputs?: FieldDecl[];
}) {
  const fieldType = useTypeLabel();
  const { t } = useTranslation('workflow');
  // Edits show in the panel at once and reach the canvas (cards, autosave, undo) a moment later, at
  // most every COMMIT_MS while typing: a keystroke re-renders this panel, not the editor and its
  // hundreds of cards. `pending` lets the editor take them at once (before a save, undo, leaving).
  const [draft, setDraft] = useState<Param | null>(null);
  const [synced, setSynced] = useState(0);
  const queued = useRef<Param | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const commit = useRef(() => {});
  commit.current = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const next = queued.current;
    queued.current = null;
    if (pending) pending.current = null;
    if (next) onChange(next);
    setDraft(null);
  };
  useEffect(() => () => commit.current(), []);
  const param = draft ?? node.node_param;
  const shown = useMemo(() => (draft ? { ...node, node_param: draft } : node), [draft, node]);
  /** Queues an edit for the canvas without re-rendering the panel (the title keeps its own text). */
  const queue = (patch: Partial<Param>): Param => {
    const next = { ...(queued.current ?? param), ...patch };
    queued.current = next;
    if (pending)
      pending.current = () => {
        commit.current();
        setSynced((n) => n + 1);
      };
    timer.current ??= setTimeout(() => commit.current(), COMMIT_MS);
    return next;
  };
  const set = (patch: Partial<Param>) => setDraft(queue(patch));
  const policy = param.error_policy ?? { retry: 0, on_error: 'throw' as const };
  const Form = client?.Form;
  const variables = useVariables(spaceId);
  const byField = useMemo(
    () =>
      Object.fromEntries(problems.filter((p) => p.field && p.level !== 'warning').map((p) => [p.field!, p.message])),
    [problems],
  );
  return (
    <div data-testid="node-panel" data-node-id={node.node_id} style={{ padding: 12, overflow: 'auto', height: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">{typeLabel}</Typography.Text>
        <Button
          size="mini"
          status="danger"
          type="text"
          icon={<IconDelete />}
          onClick={onDelete}
          data-testid="node-delete"
        >
          {t('delete')}
        </Button>
      </Space>
      <TitleInput
        value={node.node_param.title ?? ''}
        placeholder={node.node_id}
        onType={(title) => queue({ title })}
        sync={synced}
      />
      {problems.map((p, i) => (
        <Typography.Paragraph
          key={i}
          type={p.level === 'warning' ? 'warning' : 'error'}
          style={{ fontSize: 12, margin: '0 0 6px' }}
          data-testid={p.level === 'warning' ? 'node-warning' : 'node-problem'}
        >
          {p.field ? `${p.field}: ${p.message}` : p.message}
        </Typography.Paragraph>
      ))}
      <Collapse defaultActiveKey={['inputs', 'settings', 'outputs']} bordered={false}>
        {!entry && (
          <Collapse.Item name="inputs" header={t('editor.inputs')}>
            <Inputs
              param={param}
              upstream={upstream}
              variables={variables}
              onChange={(inputs) => set({ inputs })}
              problems={byField}
            />
          </Collapse.Item>
        )}
        <Collapse.Item name="settings" header={t('editor.settings')}>
          {Form ? (
            <Form
              node={shown}
              upstream={upstream}
              body={body}
              spaceId={spaceId}
              workflowId={workflowId}
              problems={byField}
              widgets={FORM_WIDGETS}
              onSettings={(settings) => set({ settings })}
              onParam={set}
            />
          ) : (
            <JsonSettings settings={param.settings} onChange={(settings) => set({ settings })} />
          )}
        </Collapse.Item>
        <Collapse.Item name="outputs" header={t('editor.outputs')}>
          {computedOutputs ? (
            <div data-testid="node-computed-outputs">
              {computedOutputs.map((f) => (
                <Tag key={f.name} style={{ margin: '0 4px 4px 0' }}>
                  {f.name} <span style={{ color: 'var(--color-text-3)' }}>{fieldType(f.type)}</span>
                </Tag>
              ))}
              <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: 0 }}>
                {t('editor.computedOutputs')}
              </Typography.Paragraph>
            </div>
          ) : (
            <FieldsEditor
              fields={param.outputs}
              onChange={(outputs) => set({ outputs })}
              testId="output"
              addLabel={t('editor.addOutput')}
              problemOf={(i) => byField[`outputs.${i}.name`] ?? byField[`outputs.${i}`]}
            />
          )}
        </Collapse.Item>
        <Collapse.Item name="errors" header={t('editor.errorPolicy')}>
          <Space direction="vertical" size={6} data-testid="node-error-policy">
            <Space>
              <span style={{ width: 90, display: 'inline-block' }}>{t('editor.timeout')}</span>
              <InputNumber
                size="small"
                min={1}
                max={3_600_000}
                placeholder="ms"
                value={policy.timeout_ms}
                onChange={(v) => set({ error_policy: { ...policy, timeout_ms: v || undefined } })}
              />
            </Space>
            <Space>
              <span style={{ width: 90, display: 'inline-block' }}>{t('editor.retry')}</span>
              <InputNumber
                size="small"
                min={0}
                max={10}
                value={policy.retry}
                onChange={(v) => set({ error_policy: { ...policy, retry: v ?? 0 } })}
              />
            </Space>
            <Space>
              <span style={{ width: 90, display: 'inline-block' }}>{t('editor.onError')}</span>
              <Select
                size="small"
                style={{ width: 180 }}
                value={policy.on_error}
                onChange={(on_error) => set({ error_policy: { ...policy, on_error } })}
                data-testid="node-on-error"
              >
                <Select.Option value="throw">{t('editor.onErrorThrow')}</Select.Option>
                <Select.Option value="default">{t('editor.onErrorDefault')}</Select.Option>
                <Select.Option value="branch">{t('editor.onErrorBranch')}</Select.Option>
              </Select>
            </Space>
            {policy.on_error === 'default' && (
              <div style={{ width: 330 }}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('editor.defaultOutput')}
                </Typography.Text>
                <JsonSettings
                  settings={policy.default_output ?? {}}
                  onChange={(default_output) => set({ error_policy: { ...policy, default_output } })}
                  testId="node-default-output"
                />
              </div>
            )}
          </Space>
        </Collapse.Item>
      </Collapse>
    </div>
  );
}
