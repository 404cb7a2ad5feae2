// The built-in components' views, in plain HTML (the published app loads no component kit): layout (rows that stack
// on narrow screens, columns), text and Markdown (no raw HTML), images (http(s) only), inputs and file pickers (their
// value may be bound to a variable), buttons and forms that fire their events, lists, tables and charts of a
// variable's items; custom components in a sandboxed frame. Every text is React-escaped.
import { describeError } from '@tessera/sdk';
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import type { UiComponentProps } from './types.ts';

const Markdown = lazy(() => import('react-markdown'));

const str = (v: unknown, d = '') => (typeof v === 'string' ? v : v === undefined || v === null ? d : String(v));
const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const safe = (url: string) => (/^https?:\/\//i.test(url.trim()) ? url.trim() : '');
const cell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : str(v));
const itemsOf = (p: UiComponentProps) => {
  const v = p.variables[str(p.node.props.items)];
  return Array.isArray(v) ? v : [];
};
/** A file's content as a workflow takes it: the text of a text file, else a data: URL (256 KB at most). */
export const MAX_FILE_BYTES = 256 * 1024;

function Failure({ error }: { error?: string }) {
  return error ? (
    <div className="tui-error" role="alert">
      {error}
    </div>
  ) : null;
}

function RowView({ node, children }: UiComponentProps) {
  const stack = num(node.props.stack_below, 600);
  return (
    <div
      className={`tui-row${stack >= 600 ? ' tui-stack' : stack > 0 ? ' tui-stack-sm' : ''}`}
      style={{ gap: num(node.props.gap, 12), alignItems: str(node.props.align, 'stretch') }}
    >
      {children}
    </div>
  );
}
function ColumnView({ node, children }: UiComponentProps) {
  return (
    <div className="tui-column" style={{ gap: num(node.props.gap, 12), flex: num(node.props.grow, 1) }}>
      {children}
    </div>
  );
}
function TextView({ node, fill }: UiComponentProps) {
  const size = str(node.props.size, 'body');
  const Tag = size === 'title' ? 'h2' : size === 'subtitle' ? 'h3' : 'p';
  return <Tag className={`tui-text tui-${size}`}>{fill(node.props.content)}</Tag>;
}
function MarkdownView({ node, fill }: UiComponentProps) {
  return (
    <div className="tui-markdown">
      <Suspense fallback={<p>{fill(node.props.content)}</p>}>
        <Markdown skipHtml urlTransform={(u) => safe(u) || (u.startsWith('#') ? u : '')}>
          {fill(node.props.content)}
        </Markdown>
      </Suspense>
    </div>
  );
}
function ImageView({ node, fill }: UiComponentProps) {
  const src = safe(fill(node.props.src));
  return src ? <img className="tui-image" src={src} alt={fill(node.props.alt)} /> : null;
}
function InputView({ node, value, setValue, fill }: UiComponentProps) {
  const kind = str(node.props.kind, 'text');
  const label = fill(node.props.label);
  const common = {
    value: str(value),
    placeholder: fill(node.props.placeholder),
    'data-ui-id': node.id,
    className: 'tui-input',
  };
  const set = (v: string) => setValue(kind === 'number' && v !== '' ? Number(v) : v);
  return (
    <label className="tui-field">
      {label && <span>{label}</span>}
      {kind === 'textarea' ? (
        <textarea rows={3} {...common} onChange={(e) => set(e.target.value)} />
      ) : (
        <input type={kind === 'number' ? 'number' : 'text'} {...common} onChange={(e) => set(e.target.value)} />
      )}
    </label>
  );
}
function FileView({ node, setValue, fill, t }: UiComponentProps) {
  const [note, setNote] = useState('');
  return (
    <label className="tui-field">
      <span>{fill(node.props.label) || t.upload}</span>
      <input
        type="file"
        data-ui-id={node.id}
        accept={str(node.props.accept) || undefined}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (!f) return setValue(undefined);
          if (f.size > MAX_FILE_BYTES) {
            setNote(`${f.name}: > ${MAX_FILE_BYTES / 1024} KB`);
            return setValue(undefined);
          }
          setNote('');
          const reader = new FileReader();
          reader.onload = () => setValue(reader.result);
          if (/^text\/|json|csv|xml/.test(f.type) || /\.(txt|md|csv|json)$/i.test(f.name)) reader.readAsText(f);
          else reader.readAsDataURL(f);
        }}
      />
      {note && <span className="tui-error">{note}</span>}
    </label>
  );
}
function ButtonView({ node, fire, busy, error, fill, t }: UiComponentProps) {
  return (
    <div>
      <button
        type="button"
        className="tui-button"
        disabled={busy}
        onClick={() => void fire('click')}
        data-ui-id={node.id}
      >
        {busy ? t.working : fill(node.props.label) || t.button}
      </button>
      <Failure error={error} />
    </div>
  );
}
function FormView({ node, children, fire, busy, error, fill, t }: UiComponentProps) {
  return (
    <form
      data-ui-id={node.id}
      className="tui-form"
      onSubmit={(e) => {
        e.preventDefault();
        void fire('submit');
      }}
    >
      {children}
      <div>
        <button type="submit" className="tui-button" disabled={busy}>
          {busy ? t.working : fill(node.props.submit_label) || t.submit}
        </button>
      </div>
      <Failure error={error} />
    </form>
  );
}
function ListView(p: UiComponentProps) {
  return (
    <ul className="tui-list" data-ui-id={p.node.id}>
      {itemsOf(p)
        .slice(0, 200)
        .map((item, i) => (
          <li key={i}>{cell(item)}</li>
        ))}
    </ul>
  );
}
function TableView(p: UiComponentProps) {
  const rows = itemsOf(p)
    .filter((r): r is Record<string, unknown> => !!r && typeof r === 'object')
    .slice(0, 500);
  const keys = str(p.node.props.columns)
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const columns = keys.length ? keys : Object.keys(rows[0] ?? {});
  if (!rows.length) return <p className="tui-empty">{p.t.empty}</p>;
  return (
    <div className="tui-table-wrap">
      <table className="tui-table" data-ui-id={p.node.id}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>{cell(r[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
/** Bars or a line of a variable's items: `x` names the label field, `y` the number (or the items are numbers). */
function ChartView(p: UiComponentProps) {
  const x = str(p.node.props.x);
  const y = str(p.node.props.y);
  const points = itemsOf(p)
    .slice(0, 100)
    .map((item, i) => {
      const o: Record<string, unknown> =
        item && typeof item === 'object' ? (item as Record<string, unknown>) : { value: item };
      const v = Number(y ? o[y] : (o.value ?? item));
      return { label: x ? cell(o[x]) : String(i + 1), value: Number.isFinite(v) ? v : 0 };
    });
  const title = p.fill(p.node.props.title);
  if (!points.length) return <p className="tui-empty">{p.t.empty}</p>;
  const W = 600;
  const H = 220;
  const max = Math.max(...points.map((q) => q.value), 0) || 1;
  const min = Math.min(...points.map((q) => q.value), 0);
  const span = max - min || 1;
  const step = W / points.length;
  const yOf = (v: number) => H - 20 - ((v - min) / span) * (H - 40);
  const line = str(p.node.props.kind) === 'line';
  return (
    <figure className="tui-chart" data-ui-id={p.node.id}>
      {title && <figcaption>{title}</figcaption>}
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title || 'chart'}>
        <line x1={0} x2={W} y1={yOf(0)} y2={yOf(0)} className="tui-axis" />
        {line ? (
          <polyline
            fill="none"
            className="tui-line"
            points={points.map((q, i) => `${i * step + step / 2},${yOf(q.value)}`).join(' ')}
          />
        ) : (
          points.map((q, i) => (
            <rect
              key={i}
              className="tui-bar"
              x={i * step + step * 0.15}
              width={step * 0.7}
              y={Math.min(yOf(q.value), yOf(0))}
              height={Math.abs(yOf(0) - yOf(q.value))}
            >
              <title>{`${q.label}: ${q.value}`}</title>
            </rect>
          ))
        )}
        {points.length <= 24 &&
          points.map((q, i) => (
            <text key={i} x={i * step + step / 2} y={H - 4} textAnchor="middle" className="tui-tick">
              {q.label.slice(0, 10)}
            </text>
          ))}
      </svg>
    </figure>
  );
}

/** A conversation with the app's bot: its welcome, the turns, the answer written as it comes. */
function ChatView({ node, fill, chat, t }: UiComponentProps) {
  const [turns, setTurns] = useState<{ role: 'user' | 'assistant' | 'error'; text: string }[]>([]);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const conversation = useRef<string | undefined>(undefined);
  const welcome = fill(node.props.welcome);
  const send = async () => {
    const query = draft.trim();
    if (!query || busy || !chat) return;
    setDraft('');
    setBusy(true);
    setTurns((x) => [...x, { role: 'user', text: query }, { role: 'assistant', text: '' }]);
    const last = (fn: (text: string) => { role: 'assistant' | 'error'; text: string }) =>
      setTurns((x) => [...x.slice(0, -1), fn(x[x.length - 1].text)]);
    try {
      await chat({
        query,
        conversationId: conversation.current,
        onDelta: (d) => last((text) => ({ role: 'assistant', text: text + d })),
        onConversation: (id) => (conversation.current = id),
      });
    } catch (e) {
      last(() => ({ role: 'error', text: describeError(e) || t.failed }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tui-chat" data-ui-id={node.id}>
      <div className="tui-chat-log" aria-live="polite">
        {welcome && <div className="tui-msg tui-assistant">{welcome}</div>}
        {turns.map((m, i) => (
          <div key={i} className={`tui-msg tui-${m.role}`} data-role={m.role}>
            {m.text || (busy && i === turns.length - 1 ? '…' : '')}
          </div>
        ))}
      </div>
      <form
        className="tui-chat-input"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <input
          className="tui-input"
          value={draft}
          maxLength={4000}
          placeholder={fill(node.props.placeholder) || t.ask}
          aria-label={t.ask}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="tui-button" disabled={busy || !draft.trim()}>
          {t.send}
        </button>
      </form>
    </div>
  );
}

/**
 * A custom component (imported into the space, or an extension's): its page in a frame sandboxed to another origin,
 * served with a policy that allows it no network. It gets its props, the app's variables and its value by
 * postMessage; it may set its value, fire its click or submit, and ask for a height. Messages from any other window
 * are ignored.
 */
function FrameView({ node, variables, value, setValue, fire, fill, frameSrc, t, error }: UiComponentProps) {
  const ref = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(num(node.props.height, 120));
  const state = JSON.stringify({
    props: Object.fromEntries(Object.entries(node.props).map(([k, v]) => [k, typeof v === 'string' ? fill(v) : v])),
    variables,
    value: value ?? null,
  });
  const post = () =>
    ref.current?.contentWindow?.postMessage({ tessera: 'ui', kind: 'state', ...JSON.parse(state) }, '*');
  const latest = useRef({ post, setValue, fire });
  latest.current = { post, setValue, fire };
  useEffect(() => post(), [state]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (!ref.current || e.source !== ref.current.contentWindow) return;
      const m = e.data as { tessera?: string; kind?: string; value?: unknown; on?: string; height?: number };
      if (!m || m.tessera !== 'ui') return;
      if (m.kind === 'ready') latest.current.post();
      else if (m.kind === 'value' && JSON.stringify(m.value ?? null).length <= 100_000)
        latest.current.setValue(m.value);
      else if (m.kind === 'fire' && (m.on === 'click' || m.on === 'submit')) void latest.current.fire(m.on);
      else if (m.kind === 'height' && typeof m.height === 'number')
        setHeight(Math.max(20, Math.min(2000, Math.round(m.height))));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  if (!frameSrc) return <p className="tui-empty">{t.frameMissing}</p>;
  return (
    <div>
      <iframe
        ref={ref}
        className="tui-frame"
        sandbox="allow-scripts"
        src={frameSrc}
        title={node.type}
        data-ui-id={node.id}
        style={{ height }}
      />
      <Failure error={error} />
    </div>
  );
}

export const BUILTIN_VIEWS: Record<string, ComponentType<UiComponentProps>> = {
  row: RowView,
  column: ColumnView,
  text: TextView,
  markdown: MarkdownView,
  image: ImageView,
  input: InputView,
  file: FileView,
  button: ButtonView,
  form: FormView,
  list: ListView,
  table: TableView,
  chart: ChartView,
  chat: ChatView,
};
export { FrameView };
