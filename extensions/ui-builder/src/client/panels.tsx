// The builder's side panels: a component's event (a workflow, its inputs from the page, its outputs into variables),
// the app's variables, its pages and its theme.
import { Button, Input, InputNumber, Popconfirm, Radio, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dsl, InputSource, UiEvent, UiNode } from '../shared/dsl.ts';
import { addPage, allIds, find, removePage } from './tree.ts';

export function EventEditor({
  componentId,
  on,
  event,
  dsl,
  workflows,
  onChange,
}: {
  componentId: string;
  on: 'click' | 'submit' | 'load';
  event?: UiEvent;
  dsl: Dsl;
  /** The space's workflows to pick from. */
  workflows: { workflow_id: string; name: string; published: boolean }[];
  onChange(e: UiEvent | null): void;
}) {
  const { t } = useTranslation('ui-builder');
  const e: UiEvent = event ?? {
    event_id: `${componentId}_${on}`,
    component_id: componentId,
    on,
    action: { type: 'workflow', workflow_id: '', inputs: {}, outputs: {} },
  };
  const set = (action: Partial<UiEvent['action']>) => onChange({ ...e, action: { ...e.action, ...action } });
  const ids = dsl.pages.flatMap((p) => allIds(p.root));
  const [input, setInput] = useState('');
  const [output, setOutput] = useState('');
  const [path, setPath] = useState('');
  const sourceValue = (src: InputSource) =>
    src.from === 'component' ? `c:${src.component_id}` : src.from === 'variable' ? `v:${src.name}` : '';
  return (
    <div style={{ marginTop: 16 }} data-testid="ui-event">
      <Typography.Text bold>{t(`event.${on}`)}</Typography.Text>
      <Select
        style={{ marginTop: 6 }}
        size="small"
        value={workflows.some((w) => w.workflow_id === e.action.workflow_id) ? e.action.workflow_id : undefined}
        onChange={(workflow_id: string | undefined) => (workflow_id ? set({ workflow_id }) : onChange(null))}
        placeholder={t('event.pick')}
        allowClear
        showSearch
        data-testid="ui-event-workflow-pick"
      >
        {workflows.map((w) => (
          <Select.Option key={w.workflow_id} value={w.workflow_id} disabled={!w.published}>
            {w.name}
            {!w.published && ` (${t('event.unpublished')})`}
          </Select.Option>
        ))}
      </Select>
      <Input
        style={{ marginTop: 4 }}
        size="small"
        value={e.action.workflow_id}
        onChange={(workflow_id) => (workflow_id ? set({ workflow_id }) : onChange(null))}
        placeholder={t('event.workflow')}
        data-testid="ui-event-workflow"
      />
      {Object.entries(e.action.inputs).map(([name, src]) => (
        <div key={name} style={{ display: 'flex', gap: 4, marginTop: 4, alignItems: 'center' }}>
          <span style={{ width: 80, fontSize: 12 }}>{name} ←</span>
          <Select
            size="small"
            value={sourceValue(src)}
            onChange={(v: string) =>
              set({
                inputs: {
                  ...e.action.inputs,
                  [name]: v.startsWith('v:')
                    ? { from: 'variable', name: v.slice(2) }
                    : { from: 'component', component_id: v.slice(2) },
                },
              })
            }
            style={{ flex: 1 }}
          >
            {ids.map((id) => (
              <Select.Option key={`c:${id}`} value={`c:${id}`}>
                {id}
              </Select.Option>
            ))}
            {dsl.variables.map((v) => (
              <Select.Option key={`v:${v.name}`} value={`v:${v.name}`}>
                {`{{${v.name}}}`}
              </Select.Option>
            ))}
          </Select>
          <Button
            size="mini"
            icon={<IconDelete />}
            aria-label={t('remove')}
            onClick={() => {
              const { [name]: _gone, ...rest } = e.action.inputs;
              set({ inputs: rest });
            }}
          />
        </div>
      ))}
      <Space style={{ marginTop: 4 }}>
        <Input
          size="small"
          value={input}
          onChange={setInput}
          placeholder={t('event.input')}
          data-testid="ui-event-input"
        />
        <Button
          size="small"
          icon={<IconPlus />}
          aria-label={t('add')}
          disabled={!input.trim() || !e.action.workflow_id}
          onClick={() => {
            // A form's first input is where its value most likely comes from.
            const holder = dsl.pages.map((p) => find(p.root, componentId)).find(Boolean);
            const first = holder?.children?.flatMap(function inputs(n: UiNode): UiNode[] {
              return n.type === 'input' || n.type === 'file' ? [n] : (n.children ?? []).flatMap(inputs);
            })[0]?.id;
            set({
              inputs: {
                ...e.action.inputs,
                [input.trim()]: { from: 'component', component_id: first ?? componentId },
              },
            });
            setInput('');
          }}
          data-testid="ui-event-input-add"
        />
      </Space>
      {Object.entries(e.action.outputs).map(([variable, p]) => (
        <div key={variable} style={{ fontSize: 12, marginTop: 4 }}>
          {variable} ← output.{p}
        </div>
      ))}
      <Space style={{ marginTop: 4 }} wrap>
        <Select
          size="small"
          value={output}
          onChange={setOutput}
          placeholder={t('event.variable')}
          style={{ width: 110 }}
          data-testid="ui-event-output-variable"
        >
          {dsl.variables.map((v) => (
            <Select.Option key={v.name} value={v.name}>
              {v.name}
            </Select.Option>
          ))}
        </Select>
        <Input
          size="small"
          value={path}
          onChange={setPath}
          placeholder={t('event.path')}
          style={{ width: 110 }}
          data-testid="ui-event-output-path"
        />
        <Button
          size="small"
          icon={<IconPlus />}
          aria-label={t('add')}
          disabled={!output || !e.action.workflow_id}
          onClick={() => {
            set({ outputs: { ...e.action.outputs, [output]: path.trim() || output } });
            setPath('');
          }}
          data-testid="ui-event-output-add"
        />
      </Space>
    </div>
  );
}

export function Variables({ dsl, onChange }: { dsl: Dsl; onChange(d: Dsl): void }) {
  const { t } = useTranslation('ui-builder');
  const [name, setName] = useState('');
  return (
    <div style={{ marginTop: 16 }} data-testid="ui-variables">
      <Typography.Text bold>{t('variables')}</Typography.Text>
      <div style={{ display: 'flex', gap: 4, flexWrap: 'wrap', marginTop: 4 }}>
        {dsl.variables.map((v) => (
          <Tag
            key={v.name}
            closable
            onClose={() => onChange({ ...dsl, variables: dsl.variables.filter((x) => x.name !== v.name) })}
          >
            {v.name}
          </Tag>
        ))}
      </div>
      <Space style={{ marginTop: 4 }}>
        <Input
          size="small"
          value={name}
          onChange={setName}
          placeholder={t('variableName')}
          data-testid="ui-variable-name"
        />
        <Button
          size="small"
          disabled={!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) || dsl.variables.some((v) => v.name === name)}
          onClick={() => (onChange({ ...dsl, variables: [...dsl.variables, { name, default: '' }] }), setName(''))}
          data-testid="ui-variable-add"
        >
          {t('add')}
        </Button>
      </Space>
    </div>
  );
}

/** The app's pages: add one, rename or remove the current one. */
export function PagesPanel({
  dsl,
  pageId,
  onChange,
  onPick,
}: {
  dsl: Dsl;
  pageId: string;
  onChange(d: Dsl): void;
  onPick(pageId: string): void;
}) {
  const { t } = useTranslation('ui-builder');
  const [name, setName] = useState('');
  const page = dsl.pages.find((p) => p.page_id === pageId) ?? dsl.pages[0];
  return (
    <div style={{ marginTop: 16 }} data-testid="ui-pages">
      <Typography.Text bold>{t('pages.title')}</Typography.Text>
      <Space style={{ marginTop: 4 }}>
        <Input
          size="small"
          value={page.name}
          onChange={(v) =>
            onChange({ ...dsl, pages: dsl.pages.map((p) => (p.page_id === page.page_id ? { ...p, name: v } : p)) })
          }
          aria-label={t('pages.name')}
          data-testid="ui-page-name"
        />
        {dsl.pages.length > 1 && (
          <Popconfirm
            title={t('pages.removeConfirm')}
            onOk={() => {
              onChange(removePage(dsl, page.page_id));
              onPick(dsl.pages.find((p) => p.page_id !== page.page_id)!.page_id);
            }}
          >
            <Button size="mini" status="danger" icon={<IconDelete />} aria-label={t('remove')} />
          </Popconfirm>
        )}
      </Space>
      <Space style={{ marginTop: 4 }}>
        <Input size="small" value={name} onChange={setName} placeholder={t('pages.new')} data-testid="ui-page-new" />
        <Button
          size="small"
          disabled={!name.trim()}
          onClick={() => {
            const r = addPage(dsl, name.trim());
            onChange(r.dsl);
            onPick(r.pageId);
            setName('');
          }}
          data-testid="ui-page-add"
        >
          {t('add')}
        </Button>
      </Space>
    </div>
  );
}

/** The app's theme: its colour, corner radius and density. */
export function ThemePanel({ dsl, onChange }: { dsl: Dsl; onChange(d: Dsl): void }) {
  const { t } = useTranslation('ui-builder');
  const set = (theme: Partial<Dsl['theme']>) => onChange({ ...dsl, theme: { ...dsl.theme, ...theme } });
  return (
    <div style={{ marginTop: 16 }} data-testid="ui-theme">
      <Typography.Text bold>{t('theme.title')}</Typography.Text>
      <Space style={{ marginTop: 4 }} wrap>
        <input
          type="color"
          value={dsl.theme.primary}
          onChange={(e) => set({ primary: e.target.value })}
          aria-label={t('theme.primary')}
          data-testid="ui-theme-primary"
        />
        <InputNumber
          size="small"
          min={0}
          max={24}
          value={dsl.theme.radius}
          onChange={(v) => set({ radius: Number(v) || 0 })}
          prefix={t('theme.radius')}
          style={{ width: 120 }}
        />
        <Radio.Group
          type="button"
          size="small"
          value={dsl.theme.density}
          onChange={(density: 'compact' | 'comfortable') => set({ density })}
        >
          <Radio value="comfortable">{t('theme.comfortable')}</Radio>
          <Radio value="compact">{t('theme.compact')}</Radio>
        </Radio.Group>
      </Space>
    </div>
  );
}
