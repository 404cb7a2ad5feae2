/** Helpers for bot tests: a studio with a fake model, bots and their chats. */
import type { Agent } from './agent.ts';

export interface ChatEvent {
  event: string;
  data: any;
}

/** Reads a server-sent event stream into events (data parsed as JSON when it is). */
export async function readSse(res: Response, onEvent?: (e: ChatEvent) => void): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const raw = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      let data: any = raw;
      try {
        data = JSON.parse(raw);
      } catch {
        /* text */
      }
      const e = { event, data };
      events.push(e);
      onEvent?.(e);
    }
  }
  return events;
}

/** POSTs as the signed-in agent (cookies and CSRF) and returns the raw response (for streams). */
export function postRaw(
  agent: Agent,
  path: string,
  body: unknown,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(agent.base + path, {
    method: 'POST',
    signal,
    headers: {
      ...headers,
      'content-type': 'application/json',
      cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': decodeURIComponent(agent.cookies.get('tessera_csrf') ?? ''),
    },
    body: JSON.stringify(body),
  });
}

/** Sends a message in the editor's debug chat and reads the whole answer stream. */
export async function debugChat(
  agent: Agent,
  spaceId: string,
  botId: string,
  query: string,
  extra: Record<string, unknown> = {},
): Promise<ChatEvent[]> {
  const res = await postRaw(agent, '/api/conversation/chat', { space_id: spaceId, bot_id: botId, query, ...extra });
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
    throw new Error(`chat did not stream: ${res.status} ${await res.text()}`);
  return readSse(res);
}

export const answerOf = (events: ChatEvent[]) =>
  events
    .filter((e) => e.event === 'conversation.message.delta')
    .map((e) => e.data.content)
    .join('');
export const completed = (events: ChatEvent[], type: string) =>
  events.filter((e) => e.event === 'conversation.message.completed' && e.data.type === type).map((e) => e.data);

/**
 * A draft bot of the space answered by a model: its persona prompt and skills set (and any other settings). Works
 * with any client that posts (a test agent, a browser session's api).
 */
export async function draftBot(
  api: { post(path: string, body: unknown): Promise<any> },
  spaceId: string,
  opts: { name: string; model: string; prompt?: string; skills?: Record<string, unknown> },
): Promise<string> {
  const { bot_id } = await api.post('/api/draftbot/create', { space_id: spaceId, name: opts.name });
  const info = (await api.post('/api/playground_api/draftbot/get_draft_bot_info', { space_id: spaceId, bot_id }))
    .bot_info;
  await api.post('/api/playground_api/draftbot/update_draft_bot_info', {
    space_id: spaceId,
    bot_id,
    base_revision: info.revision,
    config: {
      ...info.config,
      settings: { prompt: opts.prompt ?? 'You help.', model: { model_id: opts.model } },
      ...(opts.skills ? { skills: opts.skills } : {}),
    },
  });
  return bot_id as string;
}
