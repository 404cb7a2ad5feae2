import type { SseStream } from '@tessera/sdk/server';
import type { ChatService } from './chat.ts';

/**
 * Streams a live chat's events as server-sent events in Coze's shape (`event: conversation.message.delta`,
 * `data: {...}`; `done` with "[DONE]"). Resolves when the chat ends; a client that goes away cancels it
 * unless `keepOnDisconnect`.
 */
export function pipeChat(
  chats: ChatService,
  chatId: string,
  sse: SseStream,
  signal: AbortSignal,
  opts: { keepOnDisconnect?: boolean } = {},
): Promise<void> {
  return new Promise<void>((resolve) => {
    let n = 0;
    let off: (() => void) | undefined;
    const gone = () => {
      off?.();
      if (!opts.keepOnDisconnect) chats.cancel(chatId);
      resolve();
    };
    off = chats.subscribe(chatId, (e) => {
      if (sse.closed) return;
      // Coze ends with `data: "[DONE]"` (a JSON string).
      sse.send(e.event, e.event === 'done' ? '"[DONE]"' : e.data, String(n++));
      if (e.event === 'done') {
        signal.removeEventListener('abort', gone);
        queueMicrotask(() => off?.());
        sse.close();
        resolve();
      }
    });
    if (!off) {
      sse.close();
      resolve();
      return;
    }
    signal.addEventListener('abort', gone, { once: true });
  });
}
