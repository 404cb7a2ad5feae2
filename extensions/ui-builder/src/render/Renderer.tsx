// Draws a page of an app from its DSL (the published app and the builder's preview alike): the app's variables
// ({{name}} in texts), what the viewer enters (an input bound to a variable writes it), events that run their workflow
// and set the variables its output maps (a page's load events when it opens); busy and failed states shown where
// they happen. In the builder's Edit mode a click selects a component instead, and nothing runs.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Dsl, UiNode } from '../shared/dsl.ts';
import { BUILTIN_VIEWS, FrameView } from './components.tsx';
import { RENDER_TEXTS, type Lang } from './texts.ts';
import { fieldOf } from '@tessera/sdk';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;

export function fillText(text: unknown, variables: Record<string, unknown>): string {
  if (typeof text !== 'string') return text === undefined || text === null ? '' : String(text);
  return text.replace(PLACEHOLDER, (_, path: string) => {
    let v: unknown = variables;
    for (const part of path.split('.')) v = fieldOf(v, part);
    return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

export type RunEvent = (
  eventId: string,
  values: Record<string, unknown>,
  variables: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

export type ChatRoute = (
  componentId: string,
  q: { query: string; conversationId?: string; onDelta(t: string): void; onConversation(id: string): void },
) => Promise<void>;

export interface RendererProps {
  dsl: Dsl;
  pageId: string;
  lang: Lang;
  /** Runs an event's workflow; answers the variables it sets (throws an error with a message to show). */
  run: RunEvent;
  /** A custom component's frame address (undefined: not available here). */
  frameSrc(node: UiNode): string | undefined;
  /** A chat component's turn with its bot (the app's chat route, or the preview's). */
  chat?: ChatRoute;
  /** The builder's Edit mode: clicking a component selects it; no event runs. */
  selected?: string;
  onSelect?(id: string): void;
  /** The builder's Edit mode: something dragged (a component of the page, or one of the palette) dropped on one. */
  onDrop?(targetId: string, dropped: { node?: string; type?: string }): void;
}

/** What the builder's drags carry: a component of the page, or a type from the palette. */
export const DRAG_NODE = 'application/x-tessera-ui-node';
export const DRAG_TYPE = 'application/x-tessera-ui-type';

const message = (err: unknown) => String(fieldOf(err, 'msg') ?? fieldOf(err, 'message') ?? err);

export function Renderer({ dsl, pageId, lang, run, frameSrc, chat, selected, onSelect, onDrop }: RendererProps) {
  const [over, setOver] = useState('');
  const t = RENDER_TEXTS[lang];
  const [variables, setVariables] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(dsl.variables.map((v) => [v.name, v.default ?? ''])),
  );
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const page = dsl.pages.find((p) => p.page_id === pageId) ?? dsl.pages[0];
  // The latest values and variables, for events fired from an effect (a page's load).
  const now = useRef({ values, variables });
  now.current = { values, variables };

  const fire = async (id: string, on: 'click' | 'submit' | 'load') => {
    const events = dsl.events.filter((e) => e.component_id === id && e.on === on);
    if (!events.length || onSelect) return;
    setBusy((b) => ({ ...b, [id]: true }));
    setErrors((e) => ({ ...e, [id]: '' }));
    try {
      for (const e of events) {
        const set = await run(e.event_id, now.current.values, now.current.variables);
        now.current = { ...now.current, variables: { ...now.current.variables, ...set } };
        setVariables((v) => ({ ...v, ...set }));
      }
    } catch (err) {
      setErrors((e) => ({ ...e, [id]: message(err) || t.failed }));
    } finally {
      setBusy((b) => ({ ...b, [id]: false }));
    }
  };
  // A page's load events (on the page, or on any of its components) run when it opens.
  useEffect(() => {
    if (onSelect) return;
    const ids = new Set<string>([page.page_id]);
    const walk = (n: UiNode) => {
      ids.add(n.id);
      n.children?.forEach(walk);
    };
    walk(page.root);
    for (const id of new Set(
      dsl.events.filter((e) => e.on === 'load' && ids.has(e.component_id)).map((e) => e.component_id),
    ))
      void fire(id, 'load');
  }, [page.page_id]); // eslint-disable-line react-hooks/exhaustive-deps

  const valueOf = (n: UiNode) => {
    const bind = typeof n.props.bind === 'string' ? n.props.bind : '';
    return bind && !(n.id in values) ? variables[bind] : values[n.id];
  };
  const setValue = (n: UiNode, v: unknown) => {
    setValues((x) => ({ ...x, [n.id]: v }));
    const bind = typeof n.props.bind === 'string' ? n.props.bind : '';
    if (bind && dsl.variables.some((x) => x.name === bind)) setVariables((x) => ({ ...x, [bind]: v }));
  };

  const draw = (n: UiNode): ReactNode => {
    const View = BUILTIN_VIEWS[n.type] ?? FrameView;
    const custom = !BUILTIN_VIEWS[n.type];
    const inner = (
      <View
        node={n}
        fill={(text) => fillText(text, variables)}
        variables={variables}
        value={valueOf(n)}
        setValue={(v) => setValue(n, v)}
        fire={(on) => fire(n.id, on)}
        busy={!!busy[n.id]}
        error={errors[n.id] || undefined}
        t={t}
        frameSrc={custom ? frameSrc(n) : undefined}
        chat={chat && !onSelect ? (q) => chat(n.id, q) : undefined}
      >
        {n.children?.map(draw)}
      </View>
    );
    if (!onSelect) return <div key={n.id}>{inner}</div>;
    return (
      <div
        key={n.id}
        className={`tui-pick${selected === n.id ? ' is-selected' : ''}${over === n.id ? ' is-over' : ''}`}
        data-node-id={n.id}
        draggable={!!onDrop && n.id !== page.root.id}
        onDragStart={(e) => {
          e.stopPropagation();
          e.dataTransfer.setData(DRAG_NODE, n.id);
          e.dataTransfer.effectAllowed = 'move';
        }}
        onDragOver={(e) => {
          if (!onDrop || ![DRAG_NODE, DRAG_TYPE].some((k) => e.dataTransfer.types.includes(k))) return;
          e.preventDefault();
          e.stopPropagation();
          setOver(n.id);
        }}
        onDragLeave={() => setOver((o) => (o === n.id ? '' : o))}
        onDrop={(e) => {
          if (!onDrop) return;
          e.preventDefault();
          e.stopPropagation();
          setOver('');
          const node = e.dataTransfer.getData(DRAG_NODE);
          const type = e.dataTransfer.getData(DRAG_TYPE);
          if (node || type) onDrop(n.id, node ? { node } : { type });
        }}
        onClickCapture={(e) => {
          if (!(e.target instanceof Element) || e.target.closest('.tui-pick') !== e.currentTarget) return;
          e.preventDefault();
          e.stopPropagation();
          onSelect(n.id);
        }}
      >
        {inner}
        {/* A frame takes its clicks for itself: a cover lets the builder select it. */}
        {custom && <div className="tui-cover" />}
      </div>
    );
  };
  const loading = busy[page.page_id];
  return (
    <div
      className={`tui-app tui-${dsl.theme.density}`}
      style={{ ['--tui-radius' as string]: `${dsl.theme.radius}px`, ['--tui-primary' as string]: dsl.theme.primary }}
    >
      {loading && <div className="tui-progress" role="progressbar" aria-label={t.working} />}
      {errors[page.page_id] && (
        <div className="tui-error" role="alert">
          {errors[page.page_id]}
        </div>
      )}
      {draw(page.root)}
    </div>
  );
}
