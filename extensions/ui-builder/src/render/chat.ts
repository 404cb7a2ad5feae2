// A chat turn of an app's chat component, read from the studio's stream of Coze's chat events: the answer as it is
// written, the conversation to continue, a failure in words.
export const APP_CHAT_PATH = '/api/ui_builder/v1/app/chat';
export const PREVIEW_CHAT_PATH = '/api/ui_builder/v1/preview/chat';

export interface ChatTurn {
  /** The app's (or the builder's preview's) chat route. */
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  onDelta(text: string): void;
  onConversation(id: string): void;
}

export async function chatTurn(t: ChatTurn): Promise<void> {
  const res = await fetch(t.url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...t.headers },
    body: JSON.stringify(t.body),
  });
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { msg?: string };
    throw new Error(body.msg || `HTTP ${res.status}`);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    const parts = buffer.split('\n\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) {
      const event = /^event:\s*(.*)$/m.exec(part)?.[1];
      const data = /^data:\s*(.*)$/m.exec(part)?.[1];
      if (!event || !data) continue;
      const payload = JSON.parse(data) as {
        conversation_id?: string;
        type?: string;
        content?: string;
        meta_data?: { tool_output?: unknown };
        last_error?: { msg?: string };
        msg?: string;
        error_message?: string;
      };
      if (event === 'conversation.chat.created' && payload.conversation_id) t.onConversation(payload.conversation_id);
      if (event === 'conversation.message.delta' && payload.type === 'answer' && !payload.meta_data?.tool_output)
        t.onDelta(payload.content ?? '');
      if (event === 'conversation.chat.failed') throw new Error(payload.last_error?.msg || 'The bot could not answer.');
      if (event === 'error') throw new Error(payload.msg || payload.error_message || 'The bot could not answer.');
    }
  }
}
