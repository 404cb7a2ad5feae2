// The built-in components' views: layout (rows, columns), text and Markdown (no raw HTML), images (http(s) only), inputs,
// buttons and forms that fire their events, lists and tables of a variable's items. Every text is React-escaped.
import { Alert, Button, Input, Table } from '@arco-design/web-react';
import type { UiComponentProps } from '../shared/dsl.ts';
import Markdown from 'react-markdown';
import { useTranslation } from 'react-i18next';

const str = (v: unknown, d = '') => (typeof v === 'string' ? v : v === undefined || v === null ? d : String(v));
const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const safe = (url: string) => (/^https?:\/\//i.test(url) ? url : '');
const itemsOf = (p: UiComponentProps) => {
  const v = p.variables[str(p.node.props.items)];
  return Array.isArray(v) ? v : [];
};

export function RowView({ node, children }: UiComponentProps) {
  return (
    <div
      className="tessera-ui-row"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: num(node.props.gap, 12),
        alignItems: str(node.props.align, 'stretch'),
      }}
    >
      {children}
    </div>
  );
}
export function ColumnView({ node, children }: UiComponentProps) {
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        gap: num(node.props.gap, 12),
        flex: num(node.props.grow, 1),
        minWidth: 0,
      }}
    >
      {children}
    </div>
  );
}
export function TextView({ node, fill }: UiComponentProps) {
  const size = str(node.props.size, 'body');
  const Tag = size === 'title' ? 'h2' : size === 'subtitle' ? 'h3' : 'p';
  return <Tag style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{fill(node.props.content)}</Tag>;
}
export function MarkdownView({ node, fill }: UiComponentProps) {
  return (
    <div className="tessera-ui-markdown">
      <Markdown skipHtml urlTransform={(u) => safe(u) || (u.startsWith('#') ? u : '')}>
        {fill(node.props.content)}
      </Markdown>
    </div>
  );
}
export function ImageView({ node, fill }: UiComponentProps) {
  const src = safe(fill(node.props.src));
  if (!src) return null;
  return <img src={src} alt={fill(node.props.alt)} style={{ maxWidth: '100%', borderRadius: 'var(--ui-radius)' }} />;
}
export function InputView({ node, value, setValue, fill }: UiComponentProps) {
  const kind = str(node.props.kind, 'text');
  const label = fill(node.props.label);
  const common = {
    value: str(value(node.id)),
    placeholder: fill(node.props.placeholder),
    onChange: (v: string) => setValue(node.id, kind === 'number' && v !== '' ? Number(v) : v),
    'data-ui-id': node.id,
  };
  return (
    <label style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
      {label && <span style={{ fontSize: 13 }}>{label}</span>}
      {kind === 'textarea' ? (
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} {...common} />
      ) : (
        <Input {...common} />
      )}
    </label>
  );
}
export function ButtonView({ node, fire, busy, error, fill }: UiComponentProps) {
  const { t } = useTranslation('ui-builder');
  return (
    <div>
      <Button type="primary" loading={busy} onClick={() => void fire('click')} data-ui-id={node.id}>
        {fill(node.props.label) || t('defaults.button')}
      </Button>
      {error && <Alert type="error" style={{ marginTop: 8 }} content={error} />}
    </div>
  );
}
export function FormView({ node, children, fire, busy, error, fill }: UiComponentProps) {
  const { t } = useTranslation('ui-builder');
  return (
    <form
      data-ui-id={node.id}
      style={{ display: 'flex', flexDirection: 'column', gap: 12 }}
      onSubmit={(e) => {
        e.preventDefault();
        void fire('submit');
      }}
    >
      {children}
      <div>
        <Button type="primary" htmlType="submit" loading={busy}>
          {fill(node.props.submit_label) || t('defaults.submit')}
        </Button>
      </div>
      {error && <Alert type="error" content={error} />}
    </form>
  );
}
export function ListView(p: UiComponentProps) {
  const items = itemsOf(p);
  return (
    <ul style={{ margin: 0, paddingLeft: 20 }} data-ui-id={p.node.id}>
      {items.slice(0, 200).map((item, i) => (
        <li key={i}>{typeof item === 'object' ? JSON.stringify(item) : str(item)}</li>
      ))}
    </ul>
  );
}
export function TableView(p: UiComponentProps) {
  const rows = itemsOf(p)
    .filter((r): r is Record<string, unknown> => !!r && typeof r === 'object')
    .slice(0, 500);
  const keys = str(p.node.props.columns)
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const columns = (keys.length ? keys : Object.keys(rows[0] ?? {})).map((k) => ({
    title: k,
    dataIndex: k,
    render: (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : str(v)),
  }));
  return <Table size="small" pagination={false} columns={columns} data={rows.map((r, i) => ({ key: i, ...r }))} />;
}
