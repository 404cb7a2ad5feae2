// The space's custom components: import one (its name, label, props and page of HTML), its versions, what changed
// between two, remove a version or all (refused while an app uses it). An extension's components are listed too.
import { messageOf } from '@tessera/sdk';
import {
  Alert,
  Button,
  Drawer,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { toast } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComponentView } from '../shared/api.ts';
import { useComponents } from './store.ts';

const SAMPLE = `<div id="out" style="font-size:28px;font-weight:600"></div>
<script>
  tessera.onState(function (s) {
    document.getElementById('out').textContent = s.props.text || '';
  });
</script>`;

export function ComponentsDrawer({
  spaceId,
  visible,
  onClose,
}: {
  spaceId: string;
  visible: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation('ui-builder');
  const c = useComponents(spaceId);
  const [form, setForm] = useState({ name: '', label: '', props: 'text', html: SAMPLE, note: '' });
  const [diff, setDiff] = useState<{ type: string; lines: { op: string; text: string }[]; props: string } | null>(null);
  const [pair, setPair] = useState<Record<string, [number, number]>>({});
  const imported = c.imported.data ?? [];
  const byType = new Map<string, ComponentView[]>();
  for (const v of imported) byType.set(v.type, [...(byType.get(v.type) ?? []), v]);
  const extension = (c.list.data ?? []).filter((x) => x.source === 'extension');
  const submit = () =>
    c.importOne.mutate(
      {
        name: form.name,
        label: form.label,
        html: form.html,
        note: form.note,
        props: Object.fromEntries(
          form.props
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean)
            .map((p) => [p, 'text' as const]),
        ),
      },
      { onSuccess: (r) => toast.success(t('components.imported', { type: r.component.type, v: r.component.version })) },
    );
  return (
    <Drawer width={640} visible={visible} onCancel={onClose} footer={null} title={t('components.title')}>
      <div data-testid="ui-components">
        <Typography.Paragraph type="secondary">{t('components.intro')}</Typography.Paragraph>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <Input
              value={form.name}
              onChange={(name) => setForm({ ...form, name })}
              placeholder={t('components.name')}
              addBefore="x-"
              data-testid="ui-component-name"
            />
            <Input
              value={form.label}
              onChange={(label) => setForm({ ...form, label })}
              placeholder={t('components.label')}
              data-testid="ui-component-label"
            />
          </Space>
          <Input
            value={form.props}
            onChange={(props) => setForm({ ...form, props })}
            addBefore={t('components.props')}
            data-testid="ui-component-props"
          />
          <Input.TextArea
            value={form.html}
            onChange={(html) => setForm({ ...form, html })}
            autoSize={{ minRows: 6, maxRows: 16 }}
            style={{ fontFamily: 'monospace' }}
            data-testid="ui-component-html"
          />
          <Space>
            <Input
              value={form.note}
              onChange={(note) => setForm({ ...form, note })}
              placeholder={t('components.note')}
              style={{ width: 300 }}
            />
            <Button
              type="primary"
              loading={c.importOne.isPending}
              disabled={!form.name || !form.label || !form.html}
              onClick={submit}
              data-testid="ui-component-import"
            >
              {t('components.import')}
            </Button>
          </Space>
          {c.importOne.error && <Alert type="error" content={messageOf(c.importOne.error)} />}
          {c.remove.error && <Alert type="error" content={messageOf(c.remove.error)} />}
        </Space>
        <Typography.Title heading={6}>{t('components.imports')}</Typography.Title>
        <Table
          size="small"
          pagination={false}
          rowKey="type"
          data={[...byType.entries()].map(([type, vs]) => ({ type, vs }))}
          noDataElement={t('components.none')}
          columns={[
            { title: t('components.type'), dataIndex: 'type', render: (v: string) => <code>{v}</code> },
            {
              title: t('components.versions'),
              render: (_: unknown, r: { type: string; vs: ComponentView[] }) => (
                <Space wrap size={4}>
                  {r.vs.map((v) => (
                    <Popconfirm
                      key={v.version}
                      title={t('components.removeVersion', { v: v.version })}
                      onOk={() => c.remove.mutate({ type: r.type, version: v.version })}
                    >
                      <Tag style={{ cursor: 'pointer' }} title={v.note}>
                        v{v.version}
                      </Tag>
                    </Popconfirm>
                  ))}
                </Space>
              ),
            },
            {
              title: t('components.compare'),
              render: (_: unknown, r: { type: string; vs: ComponentView[] }) => {
                if (r.vs.length < 2) return null;
                const [from, to] = pair[r.type] ?? [r.vs[1].version, r.vs[0].version];
                const pick = (i: 0 | 1) => (v: number) => setPair({ ...pair, [r.type]: i === 0 ? [v, to] : [from, v] });
                const options = r.vs.map((v) => ({ label: `v${v.version}`, value: v.version }));
                return (
                  <Space size={4}>
                    <Select size="mini" value={from} onChange={pick(0)} options={options} style={{ width: 64 }} />
                    <Select size="mini" value={to} onChange={pick(1)} options={options} style={{ width: 64 }} />
                    <Button
                      size="mini"
                      onClick={async () => {
                        const d = await c.compare(r.type, from, to);
                        setDiff({
                          type: r.type,
                          lines: d.lines,
                          props: [
                            ...d.props_added.map((p) => `+${p}`),
                            ...d.props_removed.map((p) => `-${p}`),
                            ...d.props_changed.map((p) => `~${p}`),
                          ].join(' '),
                        });
                      }}
                      data-testid="ui-component-compare"
                    >
                      {t('components.compare')}
                    </Button>
                  </Space>
                );
              },
            },
            {
              title: '',
              render: (_: unknown, r: { type: string }) => (
                <Popconfirm title={t('components.removeAll')} onOk={() => c.remove.mutate({ type: r.type })}>
                  <Button size="mini" status="danger" data-testid="ui-component-remove">
                    {t('remove')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
        {diff && (
          <pre className="tessera-ui-diff" data-testid="ui-component-diff">
            {diff.props && `props: ${diff.props}\n`}
            {diff.lines.map((l, i) => (
              <div key={i} className={`op-${l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same'}`}>
                {l.op} {l.text}
              </div>
            ))}
          </pre>
        )}
        {extension.length > 0 && (
          <>
            <Typography.Title heading={6}>{t('components.fromExtensions')}</Typography.Title>
            <Space wrap>
              {extension.map((x) => (
                <Tag key={x.type}>
                  {x.label} <code>{x.type}</code>
                </Tag>
              ))}
            </Space>
          </>
        )}
      </div>
    </Drawer>
  );
}
