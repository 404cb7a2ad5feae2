// Inputs that node forms share: a value or reference, a {{template}} with completion, a list of typed
// fields, and a field's validation problem. Exported through @tessera/ext-workflow/client.
import { Button, Checkbox, Input, Select, Space } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { refNames, refsToIds, refsToTitles } from './refs.ts';
import type { CanvasNode, FieldDecl, InputBinding, ValueExpr } from '@tessera/workflow-sdk';
import type { NodeFormWidgets, UpstreamOutput } from './points.ts';
import { FieldProblem, FIELD_TYPES, SYSTEM_VARIABLES, useTypeLabel, type VariableRef } from './widgets-light.tsx';
import { ListWorkflows } from '../shared/api.ts';

export {
  FIELD_TYPES,
  FieldProblem,
  hintForm,
  SYSTEM_VARIABLES,
  useTypeLabel,
  useVariables,
  type VariableRef,
} from './widgets-light.tsx';

function literal(text: string, type: InputBinding['type']): unknown {
  if (type === 'integer' || type === 'number') return text === '' || Number.isNaN(Number(text)) ? text : Number(text);
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** One input's value: typed literal, a reference picked from the outputs of upstream nodes, or a variable. */
export function ValueInput({
  binding,
  upstream,
  variables = SYSTEM_VARIABLES,
  onChange,
  testId,
  error,
}: {
  binding: InputBinding;
  upstream: UpstreamOutput[];
  variables?: VariableRef[];
  onChange(value: ValueExpr): void;
  testId?: string;
  error?: boolean;
}) {
  const { t } = useTranslation('workflow');
  const typeLabel = useTypeLabel();
  const v = binding.value;
  const refKey = v.kind === 'ref' ? `${v.node_id}.${v.path.join('.')}` : undefined;
  const status = error ? ('error' as const) : undefined;
  const kind = v.kind === 'ref' || v.kind === 'var' ? v.kind : 'literal';
  // The value takes the room its row leaves (a narrow panel keeps it whole instead of cutting it off).
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 4, flex: 1, minWidth: 0 }}>
      <Select
        size="small"
        style={{ width: 88, flex: 'none' }}
        value={kind}
        onChange={(k) =>
          onChange(
            k === 'ref'
              ? { kind: 'ref', node_id: upstream[0]?.node_id ?? '', path: upstream[0] ? [upstream[0].field.name] : [] }
              : k === 'var'
                ? { kind: 'var', scope: variables[0]?.scope ?? 'system', name: variables[0]?.name ?? 'user_id' }
                : { kind: 'literal', value: '' },
          )
        }
        data-testid={testId && `${testId}-kind`}
      >
        <Select.Option value="ref">{t('editor.ref')}</Select.Option>
        <Select.Option value="literal">{t('editor.literal')}</Select.Option>
        <Select.Option value="var">{t('editor.variable')}</Select.Option>
      </Select>
      {v.kind === 'ref' ? (
        <Select
          size="small"
          style={{ flex: 1, minWidth: 120 }}
          status={status}
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
              {`${u.node_title} · ${u.field.name} (${typeLabel(u.field.type)})`}
            </Select.Option>
          ))}
        </Select>
      ) : v.kind === 'var' ? (
        <Select
          size="small"
          style={{ flex: 1, minWidth: 120 }}
          status={status}
          value={`${v.scope}.${v.name}`}
          showSearch
          onChange={(key: string) => {
            const [scope, ...name] = key.split('.');
            onChange({ kind: 'var', scope: scope as VariableRef['scope'], name: name.join('.') });
          }}
          data-testid={testId && `${testId}-var`}
        >
          {variables.map((x) => (
            <Select.Option key={`${x.scope}.${x.name}`} value={`${x.scope}.${x.name}`}>
              {`${t(`editor.scope.${x.scope}`)} · ${x.name}`}
            </Select.Option>
          ))}
        </Select>
      ) : (
        <Input
          size="small"
          style={{ flex: 1, minWidth: 120 }}
          status={status}
          value={v.kind === 'literal' ? String(v.value ?? '') : v.kind === 'template' ? v.template : ''}
          onChange={(value) => onChange({ kind: 'literal', value: literal(value, binding.type) })}
          data-testid={testId && `${testId}-literal`}
        />
      )}
    </div>
  );
}

/** How many rows a text area needs for `text` (wrapped lines counted at about 48 characters), between min and max. */
export function linesFor(text: string, min: number, max: number): number {
  const lines = text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 48)), 0);
  return Math.min(max, Math.max(min, lines));
}

interface Candidate {
  value: string;
  label: string;
  type: string;
}

/**
 * A text with {{placeholders}}: typing `{{` offers the node's inputs and the outputs of upstream nodes
 * (arrows choose, Enter or Tab inserts, Escape closes).
 */
export function TemplateInput({
  value: stored,
  onChange,
  node,
  upstream,
  placeholder,
  minRows = 2,
  maxRows = 10,
  testId,
  error,
  style,
}: {
  value: string;
  onChange(v: string): void;
  node: CanvasNode;
  upstream: UpstreamOutput[];
  placeholder?: string;
  minRows?: number;
  maxRows?: number;
  testId?: string;
  error?: boolean;
  style?: CSSProperties;
}) {
  const { t } = useTranslation('workflow');
  const area = useRef<HTMLTextAreaElement | null>(null);
  const [query, setQuery] = useState<{ start: number; end: number; text: string } | null>(null);
  const [active, setActive] = useState(0);
  // References are stored by node id and shown (and typed) by node title.
  const names = useMemo(
    () =>
      refNames(
        upstream,
        node.node_param.inputs.map((i) => i.name),
      ),
    [upstream, node.node_param.inputs],
  );
  const value = useMemo(() => refsToTitles(stored, names), [stored, names]);
  const setValue = (display: string) => onChange(refsToIds(display, names));
  const candidates = useMemo<Candidate[]>(
    () => [
      ...node.node_param.inputs.map((i) => ({ value: i.name, label: i.name, type: i.type })),
      ...upstream.map((u) => ({
        value: `${names.titles.get(u.node_id) ?? u.node_id}.${u.field.name}`,
        label: `${u.node_title} · ${u.field.name}`,
        type: u.field.type,
      })),
    ],
    [node.node_param.inputs, upstream, names],
  );
  const shown = query
    ? candidates
        .filter(
          (c) =>
            c.value.toLowerCase().includes(query.text.toLowerCase()) ||
            c.label.toLowerCase().includes(query.text.toLowerCase()),
        )
        .slice(0, 30)
    : [];
  const open = !!query && shown.length > 0;

  const detect = (text: string, caret: number) => {
    const m = /\{\{\s*([^{}\s]*)$/.exec(text.slice(0, caret));
    setQuery(m ? { start: caret - m[1].length, end: caret, text: m[1] } : null);
    setActive(0);
  };
  const pick = (c: Candidate) => {
    if (!query) return;
    const rest = value.slice(query.end);
    const closing = rest.startsWith('}}') ? '' : '}}';
    const next = `${value.slice(0, query.start)}${c.value}${closing}${rest}`;
    setValue(next);
    setQuery(null);
    const caret = query.start + c.value.length + 2;
    requestAnimationFrame(() => area.current?.setSelectionRange(caret, caret));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    if (e.key === 'ArrowDown') setActive((a) => (a + 1) % shown.length);
    else if (e.key === 'ArrowUp') setActive((a) => (a - 1 + shown.length) % shown.length);
    else if (e.key === 'Enter' || e.key === 'Tab') pick(shown[Math.min(active, shown.length - 1)]);
    else if (e.key === 'Escape') setQuery(null);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div style={{ position: 'relative', ...style }}>
      <Input.TextArea
        ref={(r) => {
          area.current = (r as unknown as { dom?: HTMLTextAreaElement } | null)?.dom ?? null;
        }}
        value={value}
        status={error ? 'error' : undefined}
        placeholder={placeholder}
        // Rows from the text's lines, not Arco's autoSize: that measures the page's layout on every
        // render, and on a large canvas that costs more than a frame.
        rows={linesFor(value, minRows, maxRows)}
        onChange={(v, e) => {
          setValue(v);
          const el = e.target as HTMLTextAreaElement;
          detect(v, el.selectionStart ?? v.length);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setQuery(null), 150)}
        data-testid={testId}
      />
      {open && (
        <div
          role="listbox"
          aria-label={t('editor.insertRef')}
          data-testid="template-options"
          style={{
            position: 'absolute',
            zIndex: 10,
            left: 0,
            right: 0,
            top: '100%',
            maxHeight: 220,
            overflow: 'auto',
            background: 'var(--color-bg-popup)',
            border: '1px solid var(--color-border-2)',
            borderRadius: 4,
            boxShadow: '0 4px 10px rgba(0,0,0,.1)',
          }}
        >
          {shown.map((c, i) => (
            <div
              key={c.value}
              role="option"
              aria-selected={i === active}
              data-testid="template-option"
              data-value={c.value}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
              onMouseEnter={() => setActive(i)}
              style={{
                padding: '4px 8px',
                cursor: 'pointer',
                fontSize: 12,
                display: 'flex',
                justifyContent: 'space-between',
                background: i === active ? 'var(--color-fill-2)' : undefined,
              }}
            >
              <span>{c.label}</span>
              <span style={{ color: 'var(--color-text-3)' }}>{c.type}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** A list of typed fields (outputs, form fields, JSON fields): name, type, optionally required. */
export function FieldsEditor({
  fields,
  onChange,
  testId = 'field',
  withRequired = false,
  addLabel,
  problemOf,
}: {
  fields: FieldDecl[];
  onChange(fields: FieldDecl[]): void;
  testId?: string;
  withRequired?: boolean;
  addLabel?: string;
  problemOf?(index: number): string | undefined;
}) {
  const typeLabel = useTypeLabel();
  const { t } = useTranslation('workflow');
  const set = (i: number, patch: Partial<FieldDecl>) =>
    onChange(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <div data-testid={`${testId}s`}>
      {fields.map((f, i) => (
        <div key={i} style={{ marginBottom: 6 }}>
          <Space size={4}>
            <Input
              size="small"
              style={{ width: 130 }}
              status={problemOf?.(i) ? 'error' : undefined}
              value={f.name}
              onChange={(name) => set(i, { name })}
              data-testid={`${testId}-${i}-name`}
            />
            <Select
              size="small"
              style={{ width: 96 }}
              value={f.type}
              onChange={(type) => set(i, { type })}
              options={FIELD_TYPES.map((x) => ({ label: typeLabel(x), value: x }))}
              data-testid={`${testId}-${i}-type`}
            />
            {withRequired && (
              <Checkbox checked={!!f.required} onChange={(required) => set(i, { required })}>
                {t('editor.required')}
              </Checkbox>
            )}
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('editor.remove')}
              onClick={() => onChange(fields.filter((_, j) => j !== i))}
            />
          </Space>
          <FieldProblem message={problemOf?.(i)} />
        </div>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() =>
          onChange([
            ...fields,
            { name: `${testId === 'output' ? 'output' : 'field'}${fields.length + 1}`, type: 'string' },
          ])
        }
        data-testid={`${testId}-add`}
      >
        {addLabel ?? t('editor.addField')}
      </Button>
    </div>
  );
}

/** A workflow of the space (not `exclude`, the one being edited), picked by name. */
export function WorkflowSelect({
  spaceId,
  exclude,
  value,
  onChange,
  testId = 'workflow-select',
  style,
}: {
  spaceId: string;
  exclude?: string;
  value?: string;
  onChange(workflowId: string, name: string): void;
  testId?: string;
  style?: CSSProperties;
}) {
  const { t } = useTranslation('workflow');
  const api = useApi();
  const [q, setQ] = useState('');
  const list = useQuery({
    queryKey: ['workflow', 'picker', spaceId, q],
    queryFn: () => api.call(ListWorkflows, { space_id: spaceId, page: 1, size: 50, ...(q ? { name: q } : {}) }),
  });
  const items = (list.data?.workflow_list ?? []).filter((w) => w.workflow_id !== exclude);
  return (
    <Select
      size="small"
      style={{ width: 260, ...style }}
      showSearch
      filterOption={false}
      onSearch={setQ}
      loading={list.isLoading}
      placeholder={t('editor.pickWorkflow')}
      notFoundContent={t('editor.noWorkflows')}
      value={value || undefined}
      onChange={(id: string) => onChange(id, items.find((w) => w.workflow_id === id)?.name ?? '')}
      data-testid={testId}
    >
      {items.map((w) => (
        <Select.Option key={w.workflow_id} value={w.workflow_id}>
          {w.name}
          {w.latest_version ? (
            <span style={{ color: 'var(--color-text-3)', marginLeft: 6 }}>{w.latest_version}</span>
          ) : null}
        </Select.Option>
      ))}
    </Select>
  );
}

/** What every node form gets as `widgets` (NodeFormProps): the inputs above, for forms outside this extension. */
export const FORM_WIDGETS: NodeFormWidgets = { TemplateInput, ValueInput, FieldsEditor };
