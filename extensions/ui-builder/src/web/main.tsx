// The published app's page (/apps/<id>), a light bundle of its own: the page's data comes inline with its HTML (the
// published DSL, or why it is refused), the app is drawn with the shared renderer, and its events go to the app's
// run route as the viewer (the browser's session, if any). No studio shell, no component kit.
import { createRoot } from 'react-dom/client';
import { useState } from 'react';
import type { Dsl, UiNode } from '../shared/dsl.ts';
import { Renderer, type ChatRoute } from '../render/Renderer.tsx';
import { APP_CHAT_PATH, chatTurn } from '../render/chat.ts';
import { langOf, RENDER_TEXTS, type Lang } from '../render/texts.ts';
import '../render/render.css';
import './page.css';

interface PageData {
  ui_id: string;
  ui_name: string;
  lang?: string;
  dsl?: Dsl;
  published_version?: number;
  /** Why the app is not shown (signed out, not a member, not published). */
  refused?: string;
  sign_in?: boolean;
  /** Where a signed-in viewer's session keeps its CSRF token, and the header it goes back in. */
  csrf: { cookie: string; header: string };
}

const cookie = (name: string) =>
  decodeURIComponent(document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`))?.[1] ?? '');

const csrfHeaders = (data: PageData): Record<string, string> =>
  cookie(data.csrf.cookie) ? { [data.csrf.header]: cookie(data.csrf.cookie) } : {};

async function runEvent(
  data: PageData,
  eventId: string,
  values: Record<string, unknown>,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const res = await fetch('/api/ui_builder/v1/app/run', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...csrfHeaders(data),
    },
    credentials: 'same-origin',
    body: JSON.stringify({ ui_id: data.ui_id, event_id: eventId, values, variables }),
  });
  const body = (await res.json().catch(() => ({}))) as { code?: number; msg?: string; data?: { variables?: object } };
  if (!res.ok || body.code) throw new Error(body.msg || `HTTP ${res.status}`);
  return (body.data?.variables ?? {}) as Record<string, unknown>;
}

/** The id this browser keeps as the app's visitor (its conversations are its own). */
function visitorId(): string {
  const key = 'tessera.app.visitor';
  try {
    let v = localStorage.getItem(key);
    if (!v) localStorage.setItem(key, (v = crypto.randomUUID()));
    return v;
  } catch {
    return crypto.randomUUID();
  }
}

function App({ data, lang }: { data: PageData; lang: Lang }) {
  const [page, setPage] = useState(data.dsl?.pages[0]?.page_id ?? '');
  if (!data.dsl)
    return (
      <main className="tui-page">
        <div className="tui-refused" data-testid="ui-app-refused">
          <p>{data.refused ?? RENDER_TEXTS[lang].frameMissing}</p>
          {data.sign_in && (
            <a href={`/sign-in?next=${encodeURIComponent(location.pathname)}`} className="tui-button">
              {lang === 'zh-CN' ? '登录' : 'Sign in'}
            </a>
          )}
        </div>
      </main>
    );
  const dsl = data.dsl;
  const chat: ChatRoute = (componentId, q) =>
    chatTurn({
      url: APP_CHAT_PATH,
      headers: csrfHeaders(data),
      body: {
        ui_id: data.ui_id,
        component_id: componentId,
        query: q.query,
        conversation_id: q.conversationId,
        visitor_id: visitorId(),
      },
      onDelta: q.onDelta,
      onConversation: q.onConversation,
    });
  const frameSrc = (n: UiNode) =>
    `/api/ui_builder/v1/component/frame/${encodeURIComponent(data.ui_id)}/${encodeURIComponent(n.type)}?published=1`;
  return (
    <main className="tui-page" data-testid="ui-app">
      {dsl.pages.length > 1 && (
        <nav className="tui-tabs">
          {dsl.pages.map((p) => (
            <button
              key={p.page_id}
              type="button"
              className={p.page_id === page ? 'is-active' : ''}
              onClick={() => setPage(p.page_id)}
            >
              {p.name}
            </button>
          ))}
        </nav>
      )}
      <Renderer
        key={page}
        dsl={dsl}
        pageId={page}
        lang={lang}
        frameSrc={frameSrc}
        chat={chat}
        run={(eventId, values, variables) => runEvent(data, eventId, values, variables)}
      />
    </main>
  );
}

const holder = document.getElementById('ui-app-data');
const data = JSON.parse(holder?.textContent || '{}') as PageData;
const lang = langOf(data.lang ?? navigator.language);
document.documentElement.lang = lang;
createRoot(document.getElementById('root')!).render(<App data={data} lang={lang} />);
