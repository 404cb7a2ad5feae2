// The UI builder (/ui-apps/:uiId): the component palette, the page drawn as it will look (desktop or phone width; a
// click selects a component), the selected component's properties and its event (a workflow with inputs from the
// page and outputs into variables), the app's variables and pages; save, snapshots, access, publish.
import {
  Alert,
  Button,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Select,
  Space,
  Tabs,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { PageHeader, toast, useRegistry } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { UiComponents, type Dsl, type InputSource, type UiEvent, type UiNode } from '../shared/dsl.ts';
import { Renderer } from './Renderer.tsx';
import { useApp } from './store.ts';
import './ui.css';

const find = (n: UiNode, id: string): UiNode | undefined =>
  n.id === id ? n : n.children?.reduce<UiNode | undefined>((f, c) => f ?? find(c, id), undefined);
const mapNode = (n: UiNode, id: string, fn: (n: UiNode) => UiNode | null): UiNode | null =>
  n.id === id ? fn(n) : { ...n, children: n.children?.map((c) => mapNode(c, id, fn)).filter((c): c is UiNode => !!c) };
const allIds = (n: UiNode): string[] => [n.id, ...(n.children ?? []).flatMap(allIds)];

export function BuilderPage() {
  const { uiId = '' } = useParams();
  const { t } = useTranslation('ui-builder');
  const b = useApp(uiId);
  const components = useRegistry(UiComponents);
  const [dsl, setDsl] = useState<Dsl | null>(null);
  const [dirty, setDirty] = useState(false);
  const [pageId, setPageId] = useState('');
  const [selected, setSelected] = useState('root');
  const [width, setWidth] = useState<'desktop' | 'phone'>('desktop');
  // Edit: a click selects a component; try: the page works as it will (its events run the draft's workflows).
  const [mode, setMode] = useState<'edit' | 'try'>('edit');
  const [note, setNote] = useState('');
  useEffect(() => {
    if (b.app.data && !dirty) setDsl(b.app.data.dsl);
  }, [b.app.data, dirty]);
  if (!dsl || !b.app.data) return <div className="tessera-page" />;
  const ui = b.app.data;
  const page = dsl.pages.find((p) => p.page_id === pageId) ?? dsl.pages[0];
  const node = find(page.root, selected) ?? page.root;
  const kind = components.find((c) => c.type === node.type);
  const change = (next: Dsl) => {
    setDsl(next);
    setDirty(true);
  };
  const setRoot = (root: UiNode) =>
    change({ ...dsl, pages: dsl.pages.map((p) => (p.page_id === page.page_id ? { ...p, root } : p)) });
  const ids = new Set(dsl.pages.flatMap((p) => allIds(p.root)));
  const add = (type: string) => {
    let n = 1;
    while (ids.has(`${type}${n}`)) n++;
    const id = `${type}${n}`;
    const target = components.find((c) => c.type === node.type)?.container ? node.id : page.root.id;
    setRoot(mapNode(page.root, target, (x) => ({ ...x, children: [...(x.children ?? []), { id, type, props: {} }] }))!);
    setSelected(id);
  };
  const setProp = (name: string, value: unknown) =>
    setRoot(mapNode(page.root, node.id, (x) => ({ ...x, props: { ...x.props, [name]: value } }))!);
  const event = dsl.events.find((e) => e.component_id === node.id);
  const setEvent = (e: UiEvent | null) =>
    change({ ...dsl, events: [...dsl.events.filter((x) => x.component_id !== node.id), ...(e ? [e] : [])] });
  const save = () => b.save.mutate({ dsl }, { onSuccess: () => (setDirty(false), toast.success(t('saved'))) });
  return (
    <div className="tessera-page" data-testid="ui-builder">
      <PageHeader
        back={{ to: '/ui-apps', label: t('title') }}
        title={ui.ui_name}
        extra={dirty ? <Tag color="orange">{t('unsaved')}</Tag> : null}
        actions={
          <Space wrap>
            <Select
              value={ui.access}
              onChange={(access) => b.save.mutate({ access })}
              style={{ width: 170 }}
              data-testid="ui-access"
            >
              {(['members', 'signed_in', 'public'] as const).map((a) => (
                <Select.Option key={a} value={a}>
                  {t(`access.${a}`)}
                </Select.Option>
              ))}
            </Select>
            <Button disabled={!dirty} loading={b.save.isPending} onClick={save} data-testid="ui-save">
              {t('save')}
            </Button>
            <Button
              type="primary"
              disabled={dirty}
              loading={b.publish.isPending}
              onClick={() => b.publish.mutate(undefined, { onSuccess: () => toast.success(t('published')) })}
              data-testid="ui-publish"
            >
              {t('publish')}
            </Button>
          </Space>
        }
      />
      {b.save.error && (
        <Alert type="error" style={{ marginBottom: 8 }} content={(b.save.error as { msg?: string }).msg} />
      )}
      {ui.published_version > 0 && (
        <Typography.Paragraph>
          {t('liveAt')}{' '}
          <a href={`/apps/${ui.ui_id}`} target="_blank" rel="noreferrer" data-testid="ui-live-link">
            /apps/{ui.ui_id}
          </a>
        </Typography.Paragraph>
      )}
      <div className="tessera-ui-builder">
        <aside style={{ width: 170, flex: '0 0 170px' }} data-testid="ui-palette">
          <Typography.Text bold>{t('palette')}</Typography.Text>
          {components.map((c) => (
            <Button
              key={c.type}
              long
              size="small"
              style={{ marginTop: 6 }}
              onClick={() => add(c.type)}
              data-testid={`ui-add-${c.type}`}
            >
              {t(c.label, { defaultValue: c.type })}
            </Button>
          ))}
        </aside>
        <main style={{ flex: 1, minWidth: 0 }}>
          <Space style={{ marginBottom: 8 }} wrap>
            <Tabs activeTab={page.page_id} onChange={setPageId} type="capsule" size="small">
              {dsl.pages.map((p) => (
                <Tabs.TabPane key={p.page_id} title={p.name} />
              ))}
            </Tabs>
            <Radio.Group type="button" size="small" value={mode} onChange={setMode} data-testid="ui-mode">
              <Radio value="edit">{t('mode.edit')}</Radio>
              <Radio value="try">{t('mode.try')}</Radio>
            </Radio.Group>
            <Radio.Group type="button" size="small" value={width} onChange={setWidth}>
              <Radio value="desktop">{t('desktop')}</Radio>
              <Radio value="phone">{t('phone')}</Radio>
            </Radio.Group>
          </Space>
          <div
            className="tessera-ui-canvas"
            style={{ maxWidth: width === 'phone' ? 390 : 960 }}
            data-testid="ui-canvas"
          >
            <Renderer
              key={`${page.page_id}:${mode}`}
              dsl={dsl}
              pageId={page.page_id}
              run={b.preview}
              {...(mode === 'edit' ? { selected: node.id, onSelect: setSelected } : {})}
            />
          </div>
        </main>
        <aside style={{ width: 300, flex: '0 0 300px' }} data-testid="ui-properties">
          <Space>
            <Typography.Text bold>
              {node.id} <Tag size="small">{node.type}</Tag>
            </Typography.Text>
            {node.id !== page.root.id && (
              <Button
                size="mini"
                status="danger"
                icon={<IconDelete />}
                aria-label={t('remove')}
                onClick={() => {
                  setRoot(mapNode(page.root, node.id, () => null)!);
                  setEvent(null);
                  setSelected(page.root.id);
                }}
                data-testid="ui-remove"
              />
            )}
          </Space>
          {Object.entries(kind?.props ?? {}).map(([name, k]) => (
            <div key={name} style={{ marginTop: 8 }}>
              <div style={{ fontSize: 12, color: 'var(--color-text-3)' }}>
                {t(`prop.${name}`, { defaultValue: name })}
              </div>
              {k === 'longtext' ? (
                <Input.TextArea
                  value={String(node.props[name] ?? '')}
                  onChange={(v) => setProp(name, v)}
                  autoSize={{ minRows: 2, maxRows: 8 }}
                  data-testid={`ui-prop-${name}`}
                />
              ) : k === 'number' ? (
                <InputNumber value={Number(node.props[name] ?? 0)} onChange={(v) => setProp(name, Number(v))} />
              ) : k === 'variable' ? (
                <Select value={String(node.props[name] ?? '')} onChange={(v) => setProp(name, v)} allowClear>
                  {dsl.variables.map((v) => (
                    <Select.Option key={v.name} value={v.name}>
                      {v.name}
                    </Select.Option>
                  ))}
                </Select>
              ) : (
                <Input
                  value={String(node.props[name] ?? '')}
                  onChange={(v) => setProp(name, v)}
                  data-testid={`ui-prop-${name}`}
                />
              )}
            </div>
          ))}
          {(node.type === 'button' || node.type === 'form') && (
            <EventEditor
              componentId={node.id}
              on={node.type === 'form' ? 'submit' : 'click'}
              event={event}
              dsl={dsl}
              onChange={setEvent}
            />
          )}
          <Variables dsl={dsl} onChange={change} />
          <div style={{ marginTop: 16 }}>
            <Typography.Text bold>{t('snapshots')}</Typography.Text>
            <Space style={{ marginTop: 6 }}>
              <Input size="small" value={note} onChange={setNote} placeholder={t('snapshotNote')} maxLength={200} />
              <Button
                size="small"
                onClick={() => b.snapshot.mutate(note, { onSuccess: () => setNote('') })}
                data-testid="ui-snapshot"
              >
                {t('keep')}
              </Button>
            </Space>
            {(b.snapshots.data ?? []).slice(0, 10).map((s) => (
              <div
                key={s.snapshot_id}
                style={{ display: 'flex', gap: 6, alignItems: 'center', marginTop: 4 }}
                data-testid="ui-snapshot-row"
              >
                <span style={{ flex: 1, fontSize: 12 }}>{s.note || `v${s.version_code}`}</span>
                <Popconfirm
                  title={t('restoreConfirm')}
                  onOk={() => b.restore.mutate(s.snapshot_id, { onSuccess: () => setDirty(false) })}
                >
                  <Button size="mini">{t('restore')}</Button>
                </Popconfirm>
              </div>
            ))}
          </div>
        </aside>
      </div>
    </div>
  );
}

function EventEditor({
  componentId,
  on,
  event,
  dsl,
  onChange,
}: {
  componentId: string;
  on: 'click' | 'submit';
  event?: UiEvent;
  dsl: Dsl;
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
  const ids = dsl.pages.flatMap((p) => {
    const walk = (n: UiNode): string[] => [n.id, ...(n.children ?? []).flatMap(walk)];
    return walk(p.root);
  });
  const [input, setInput] = useState('');
  const [output, setOutput] = useState('');
  return (
    <div style={{ marginTop: 16 }} data-testid="ui-event">
      <Typography.Text bold>{t(on === 'submit' ? 'event.submit' : 'event.click')}</Typography.Text>
      <Input
        style={{ marginTop: 6 }}
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
            value={src.from === 'component' ? src.component_id : ''}
            onChange={(component_id: string) =>
              set({ inputs: { ...e.action.inputs, [name]: { from: 'component', component_id } satisfies InputSource } })
            }
            style={{ flex: 1 }}
          >
            {ids.map((id) => (
              <Select.Option key={id} value={id}>
                {id}
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
          disabled={!input.trim() || !e.action.workflow_id}
          onClick={() => {
            // A form's first input is where its value most likely comes from.
            const form = dsl.pages.map((p) => find(p.root, componentId)).find(Boolean);
            const first = form?.children?.flatMap(function inputs(n: UiNode): UiNode[] {
              return n.type === 'input' ? [n] : (n.children ?? []).flatMap(inputs);
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
      {Object.entries(e.action.outputs).map(([variable, path]) => (
        <div key={variable} style={{ fontSize: 12, marginTop: 4 }}>
          {variable} ← output.{path}
        </div>
      ))}
      <Space style={{ marginTop: 4 }}>
        <Select
          size="small"
          value={output}
          onChange={setOutput}
          placeholder={t('event.variable')}
          style={{ width: 120 }}
          data-testid="ui-event-output-variable"
        >
          {dsl.variables.map((v) => (
            <Select.Option key={v.name} value={v.name}>
              {v.name}
            </Select.Option>
          ))}
        </Select>
        <Button
          size="small"
          icon={<IconPlus />}
          disabled={!output || !e.action.workflow_id}
          onClick={() => set({ outputs: { ...e.action.outputs, [output]: output } })}
          data-testid="ui-event-output-add"
        />
      </Space>
    </div>
  );
}

function Variables({ dsl, onChange }: { dsl: Dsl; onChange(d: Dsl): void }) {
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
