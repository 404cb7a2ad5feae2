// The UI builder (/ui-apps/:uiId): the component palette (built-in and custom), the page drawn as it will look
// (desktop or phone width; Edit: a click selects a component; Try: its events run the draft's workflows), the selected
// component's properties and its event, the app's variables, pages and theme; save, snapshots, access, publish.
import { messageOf } from '@tessera/sdk';
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
import { IconDelete } from '@arco-design/web-react/icon';
import { PageHeader, toast } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { PropKind, UiEvent, UiNode } from '../shared/dsl.ts';
import type { Dsl } from '../shared/dsl.ts';
import { BUILTIN_CATALOG, type CatalogEntry } from '../render/catalog.ts';
import { DRAG_TYPE, Renderer, type ChatRoute } from '../render/Renderer.tsx';
import { PREVIEW_CHAT_PATH, chatTurn } from '../render/chat.ts';
import { CSRF_COOKIE, CSRF_HEADER } from '@tessera/ext-identity/shared';
import { langOf } from '../render/texts.ts';
import '../render/render.css';
import { ComponentsDrawer } from './ComponentsDrawer.tsx';
import { EventEditor, PagesPanel, ThemePanel, Variables } from './panels.tsx';
import { PublishPanel } from './PublishPanel.tsx';
import { useApp, useAppExtras, useComponents, usePickers } from './store.ts';
import { find, mapNode, newId, putAt, takeOut } from './tree.ts';
import './ui.css';

export function BuilderPage() {
  const { uiId = '' } = useParams();
  const { t, i18n } = useTranslation('ui-builder');
  const b = useApp(uiId);
  const custom = useComponents(b.app.data?.space_id ?? '');
  const pickers = usePickers(b.app.data?.space_id ?? '');
  const extras = useAppExtras(uiId, b.app.data?.space_id ?? '');
  const [dsl, setDsl] = useState<Dsl | null>(null);
  const [dirty, setDirty] = useState(false);
  const [pageId, setPageId] = useState('');
  const [selected, setSelected] = useState('root');
  const [width, setWidth] = useState<'desktop' | 'phone'>('desktop');
  // Edit: a click selects a component; try: the page works as it will (its events run the draft's workflows).
  const [mode, setMode] = useState<'edit' | 'try'>('edit');
  const [note, setNote] = useState('');
  const [drawer, setDrawer] = useState(false);
  useEffect(() => {
    if (b.app.data && !dirty) setDsl(b.app.data.dsl);
  }, [b.app.data, dirty]);
  if (!dsl || !b.app.data) return <div className="tessera-page" />;
  const ui = b.app.data;
  const catalog: CatalogEntry[] = [
    ...BUILTIN_CATALOG,
    ...(custom.list.data ?? []).map((c) => ({ type: c.type, label: c.label, props: c.props })),
  ];
  const page = dsl.pages.find((p) => p.page_id === pageId) ?? dsl.pages[0];
  const node = find(page.root, selected) ?? page.root;
  const kind = catalog.find((c) => c.type === node.type);
  const isCustom = !BUILTIN_CATALOG.some((c) => c.type === node.type);
  const change = (next: Dsl) => {
    setDsl(next);
    setDirty(true);
  };
  const setRoot = (root: UiNode) =>
    change({ ...dsl, pages: dsl.pages.map((p) => (p.page_id === page.page_id ? { ...p, root } : p)) });
  const add = (type: string) => {
    const id = newId(dsl, type.replace(/^x-/, ''));
    const target = catalog.find((c) => c.type === node.type)?.container ? node.id : page.root.id;
    setRoot(mapNode(page.root, target, (x) => ({ ...x, children: [...(x.children ?? []), { id, type, props: {} }] }))!);
    setSelected(id);
  };
  const isContainer = (type: string) => !!catalog.find((c) => c.type === type)?.container;
  /** A component dragged onto another (into a container, else before it), or a palette's type dropped there. */
  const drop = (targetId: string, dropped: { node?: string; type?: string }) => {
    if (dropped.type) {
      const id = newId(dsl, dropped.type.replace(/^x-/, ''));
      setRoot(putAt(page.root, targetId, { id, type: dropped.type, props: {} }, isContainer));
      return setSelected(id);
    }
    const moving = dropped.node && find(page.root, dropped.node);
    // Not onto itself, nor into what it holds.
    if (!moving || moving.id === page.root.id || find(moving, targetId)) return;
    const { root, taken } = takeOut(page.root, moving.id);
    if (taken) setRoot(putAt(root, targetId, taken, isContainer));
    setSelected(moving.id);
  };
  const setProp = (name: string, value: unknown) =>
    setRoot(mapNode(page.root, node.id, (x) => ({ ...x, props: { ...x.props, [name]: value } }))!);
  // The root's events are the page's (its load); a form submits; a button or a custom component is clicked.
  const on = node.id === page.root.id ? 'load' : node.type === 'form' ? 'submit' : 'click';
  const eventOwner = on === 'load' ? page.page_id : node.id;
  const event = dsl.events.find((e) => e.component_id === eventOwner && e.on === on);
  const setEvent = (e: UiEvent | null) =>
    change({
      ...dsl,
      events: [...dsl.events.filter((x) => !(x.component_id === eventOwner && x.on === on)), ...(e ? [e] : [])],
    });
  const save = () => b.save.mutate({ dsl }, { onSuccess: () => (setDirty(false), toast.success(t('saved'))) });
  const chat: ChatRoute = (componentId, q) =>
    chatTurn({
      url: PREVIEW_CHAT_PATH,
      headers: csrfHeader(),
      body: {
        ui_id: ui.ui_id,
        component_id: componentId,
        query: q.query,
        conversation_id: q.conversationId,
        visitor_id: 'builder-preview',
      },
      onDelta: q.onDelta,
      onConversation: q.onConversation,
    });
  const frameSrc = (n: UiNode) =>
    `/api/ui_builder/v1/component/frame/${encodeURIComponent(ui.ui_id)}/${encodeURIComponent(n.type)}?published=0${typeof n.props.version === 'number' ? `&v=${n.props.version}` : ''}`;
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
      {(b.save.error || b.publish.error) && (
        <Alert
          type="error"
          style={{ marginBottom: 8 }}
          content={((b.save.error ?? b.publish.error) as { msg?: string }).msg}
        />
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
          {catalog.map((c) => (
            <Button
              key={c.type}
              long
              size="small"
              style={{ marginTop: 6 }}
              onClick={() => add(c.type)}
              draggable
              onDragStart={(e) => e.dataTransfer.setData(DRAG_TYPE, c.type)}
              data-testid={`ui-add-${c.type}`}
            >
              {c.label.startsWith('c.') ? t(c.label, { defaultValue: c.type }) : c.label}
            </Button>
          ))}
          <Button
            long
            size="small"
            type="text"
            style={{ marginTop: 6 }}
            onClick={() => setDrawer(true)}
            data-testid="ui-components-open"
          >
            {t('components.manage')}
          </Button>
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
            <Radio.Group type="button" size="small" value={width} onChange={setWidth} data-testid="ui-width">
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
              lang={langOf(i18n.language)}
              run={b.preview}
              frameSrc={frameSrc}
              chat={chat}
              {...(mode === 'edit' ? { selected: node.id, onSelect: setSelected, onDrop: drop } : {})}
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
            <PropField
              key={name}
              name={name}
              kind={k}
              value={node.props[name]}
              variables={dsl.variables.map((v) => v.name)}
              bots={pickers.bots.data ?? []}
              write={extras.write}
              onChange={(v) => setProp(name, v)}
            />
          ))}
          {(on === 'load' || node.type === 'button' || node.type === 'form' || isCustom) && (
            <EventEditor
              key={eventOwner}
              componentId={eventOwner}
              on={on}
              event={event}
              dsl={dsl}
              workflows={pickers.workflows.data ?? []}
              onChange={setEvent}
            />
          )}
          <Variables dsl={dsl} onChange={change} />
          <PagesPanel
            dsl={dsl}
            pageId={page.page_id}
            onChange={change}
            onPick={(id) => {
              setPageId(id);
              setSelected(dsl.pages.find((p) => p.page_id === id)?.root.id ?? 'root');
            }}
          />
          <ThemePanel dsl={dsl} onChange={change} />
          <PublishPanel uiId={ui.ui_id} spaceId={ui.space_id} name={ui.ui_name} />
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
      <ComponentsDrawer spaceId={ui.space_id} visible={drawer} onClose={() => setDrawer(false)} />
    </div>
  );
}

/** The viewer's CSRF token (the session's cookie) for the preview's streamed calls. */
function csrfHeader(): Record<string, string> {
  const v = document.cookie.match(new RegExp(`(?:^|; )${CSRF_COOKIE}=([^;]*)`))?.[1];
  return v ? { [CSRF_HEADER]: decodeURIComponent(v) } : {};
}

function PropField({
  name,
  kind,
  value,
  variables,
  bots,
  write,
  onChange,
}: {
  name: string;
  kind: PropKind;
  value: unknown;
  variables: string[];
  bots: { bot_id: string; name: string; web_app: boolean }[];
  write(instruction: string, format: 'title' | 'text' | 'markdown'): Promise<string>;
  onChange(v: unknown): void;
}) {
  const { t } = useTranslation('ui-builder');
  const [asking, setAsking] = useState(false);
  const [instruction, setInstruction] = useState('');
  const [writing, setWriting] = useState(false);
  const writable =
    kind === 'longtext' || (kind === 'text' && /^(content|label|title|welcome|submit_label)$/.test(name));
  const ask = async () => {
    setWriting(true);
    try {
      onChange(await write(instruction, kind === 'longtext' ? 'markdown' : 'title'));
      setAsking(false);
      setInstruction('');
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setWriting(false);
    }
  };
  return (
    <div style={{ marginTop: 8 }}>
      <div style={{ fontSize: 12, color: 'var(--color-text-3)', display: 'flex', alignItems: 'center' }}>
        <span style={{ flex: 1 }}>{t(`prop.${name}`, { defaultValue: name })}</span>
        {writable && (
          <Button size="mini" type="text" onClick={() => setAsking(!asking)} data-testid={`ui-write-${name}`}>
            {t('write.open')}
          </Button>
        )}
      </div>
      {asking && (
        <Space style={{ marginBottom: 4 }}>
          <Input
            size="small"
            value={instruction}
            onChange={setInstruction}
            placeholder={t('write.placeholder')}
            onPressEnter={() => instruction.trim() && void ask()}
            data-testid={`ui-write-${name}-instruction`}
          />
          <Button
            size="small"
            type="primary"
            loading={writing}
            disabled={!instruction.trim()}
            onClick={() => void ask()}
            data-testid={`ui-write-${name}-go`}
          >
            {t('write.go')}
          </Button>
        </Space>
      )}
      {kind === 'longtext' ? (
        <Input.TextArea
          value={String(value ?? '')}
          onChange={onChange}
          autoSize={{ minRows: 2, maxRows: 8 }}
          data-testid={`ui-prop-${name}`}
        />
      ) : kind === 'number' ? (
        <InputNumber
          value={typeof value === 'number' ? value : undefined}
          onChange={(v) => onChange(v === undefined || v === null ? undefined : Number(v))}
          data-testid={`ui-prop-${name}`}
        />
      ) : kind === 'variable' ? (
        <Select value={String(value ?? '')} onChange={onChange} allowClear data-testid={`ui-prop-${name}`}>
          {variables.map((v) => (
            <Select.Option key={v} value={v}>
              {v}
            </Select.Option>
          ))}
        </Select>
      ) : kind === 'bot' ? (
        <>
          <Select value={String(value ?? '') || undefined} onChange={onChange} data-testid={`ui-prop-${name}`}>
            {bots.map((b) => (
              <Select.Option key={b.bot_id} value={b.bot_id}>
                {b.name}
              </Select.Option>
            ))}
          </Select>
          {!!value && !bots.find((b) => b.bot_id === value)?.web_app && (
            <Typography.Text type="warning" style={{ fontSize: 12 }}>
              {t('agent.publishBot')}
            </Typography.Text>
          )}
        </>
      ) : (
        <Input value={String(value ?? '')} onChange={onChange} data-testid={`ui-prop-${name}`} />
      )}
    </div>
  );
}
