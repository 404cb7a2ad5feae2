// Draws a page of an app from its DSL with the registered components: the app's variables ({{name}} in texts), what
// the viewer types, and events that run their workflow (the published app's, or the draft's in the builder's
// preview) and set the variables its output maps. In the builder a click selects a component instead.
import { useRegistry } from '@tessera/sdk/client';
import { useState, type ReactNode } from 'react';
import { UiComponents, type Dsl, type UiNode } from '../shared/dsl.ts';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;

export function fillText(text: unknown, variables: Record<string, unknown>): string {
  if (typeof text !== 'string') return text === undefined || text === null ? '' : String(text);
  return text.replace(PLACEHOLDER, (_, path: string) => {
    let v: unknown = variables;
    for (const part of path.split('.'))
      v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
    return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

export interface RendererProps {
  dsl: Dsl;
  pageId: string;
  /** Runs an event's workflow; answers the variables it sets (throws an error with a message to show). */
  run(
    eventId: string,
    values: Record<string, unknown>,
    variables: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  /** The builder: clicking a component selects it. */
  selected?: string;
  onSelect?(id: string): void;
}

export function Renderer({ dsl, pageId, run, selected, onSelect }: RendererProps) {
  const components = useRegistry(UiComponents);
  const byType = new Map(components.map((c) => [c.type, c]));
  const [variables, setVariables] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(dsl.variables.map((v) => [v.name, v.default ?? ''])),
  );
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const page = dsl.pages.find((p) => p.page_id === pageId) ?? dsl.pages[0];
  const fire = async (id: string, on: 'click' | 'submit') => {
    const events = dsl.events.filter((e) => e.component_id === id && e.on === on);
    if (!events.length) return;
    setBusy((b) => ({ ...b, [id]: true }));
    setErrors((e) => ({ ...e, [id]: '' }));
    try {
      for (const e of events) {
        const set = await run(e.event_id, values, variables);
        setVariables((v) => ({ ...v, ...set }));
      }
    } catch (err) {
      setErrors((e) => ({
        ...e,
        [id]: (err as { msg?: string; message?: string }).msg ?? String((err as Error).message),
      }));
    } finally {
      setBusy((b) => ({ ...b, [id]: false }));
    }
  };
  const draw = (n: UiNode): ReactNode => {
    const c = byType.get(n.type);
    const inner = c ? (
      <c.View
        node={n}
        fill={(t) => fillText(t, variables)}
        variables={variables}
        value={(id) => values[id]}
        setValue={(id, v) => setValues((x) => ({ ...x, [id]: v }))}
        fire={(on) => fire(n.id, on)}
        busy={!!busy[n.id]}
        error={errors[n.id] || undefined}
      >
        {n.children?.map(draw)}
      </c.View>
    ) : null;
    if (!onSelect) return <div key={n.id}>{inner}</div>;
    return (
      <div
        key={n.id}
        className={`tessera-ui-pick${selected === n.id ? ' is-selected' : ''}`}
        data-node-id={n.id}
        onClickCapture={(e) => {
          if ((e.target as HTMLElement).closest('.tessera-ui-pick') !== e.currentTarget) return;
          e.preventDefault();
          e.stopPropagation();
          onSelect(n.id);
        }}
      >
        {inner}
      </div>
    );
  };
  return (
    <div
      className="tessera-ui-app"
      style={{ ['--ui-radius' as string]: `${dsl.theme.radius}px`, ['--ui-primary' as string]: dsl.theme.primary }}
    >
      {draw(page.root)}
    </div>
  );
}
