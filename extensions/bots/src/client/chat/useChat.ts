import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ChatDetail, ChatMessage } from './types.ts';
import {
  BreakMessage,
  ClearMessages,
  DeleteMessage,
  GetMessages,
  NewSection,
  ReportMessage,
} from '../../shared/api.ts';

export interface ChatTarget {
  spaceId: string;
  botId: string;
  /** The editor's debug chat (the draft answers); otherwise a chat-page conversation of the published bot. */
  draft: boolean;
  conversationId?: string;
}

/** A conversation's messages (paged back), sending with a streamed answer, stop, regenerate and the rest. */
export function useChat(target: ChatTarget, onConversation?: (id: string) => void, beforeSend?: () => Promise<void>) {
  const api = useApi();
  const qc = useQueryClient();
  const key = ['bots', 'messages', target.spaceId, target.botId, target.draft, target.conversationId ?? null];
  const history = useInfiniteQuery({
    queryKey: key,
    enabled: target.draft || !!target.conversationId,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api.call(GetMessages, {
        space_id: target.spaceId,
        bot_id: target.botId,
        draft: target.draft,
        conversation_id: target.conversationId,
        cursor: pageParam,
        count: 30,
      }),
    getNextPageParam: (last) => (last.has_more ? last.messages.at(-1)?.id : undefined),
  });
  // The turn being answered now: its messages as they stream.
  const [live, setLive] = useState<{
    messages: ChatMessage[];
    chat?: ChatDetail;
    question: string;
    regenChatId?: string;
  } | null>(null);
  const [sending, setSending] = useState(false);
  const liveChat = useRef<ChatDetail | undefined>(undefined);

  const saved = useMemo(() => {
    const pages = history.data?.pages ?? [];
    const messages = pages.flatMap((p) => p.messages).reverse();
    const chats: Record<string, ChatDetail> = {};
    for (const p of pages) for (const c of p.chats) chats[c.id] = c;
    return {
      messages,
      chats,
      conversationId: pages[0]?.conversation_id ?? target.conversationId ?? null,
      sectionId: pages[0]?.section_id ?? null,
    };
  }, [history.data, target.conversationId]);

  const keyText = JSON.stringify(key);
  const refresh = useCallback(
    () => qc.invalidateQueries({ queryKey: JSON.parse(keyText) as unknown[] }),
    [qc, keyText],
  );

  const send = useCallback(
    async (query: string, opts: { regenChatId?: string } = {}) => {
      setSending(true);
      setLive({ messages: [], question: query, regenChatId: opts.regenChatId });
      liveChat.current = undefined;
      let conversationId = target.conversationId;
      try {
        // The debug chat talks to the saved draft: edits still being saved go first.
        await beforeSend?.();
        await api.stream(
          '/api/conversation/chat',
          {
            space_id: target.spaceId,
            bot_id: target.botId,
            draft: target.draft,
            conversation_id: target.conversationId,
            query,
            regen_chat_id: opts.regenChatId,
          },
          (e) => {
            let data: any;
            try {
              data = JSON.parse(e.data);
            } catch {
              return;
            }
            if (e.event.startsWith('conversation.chat.')) {
              liveChat.current = data;
              if (!conversationId) conversationId = data.conversation_id;
              setLive((l) => (l ? { ...l, chat: data } : l));
            } else if (e.event === 'conversation.message.delta') {
              setLive((l) => {
                if (!l) return l;
                const i = l.messages.findIndex((m) => m.id === data.id);
                if (i < 0) return { ...l, messages: [...l.messages, data] };
                const next = [...l.messages];
                next[i] = {
                  ...next[i],
                  content: next[i].content + data.content,
                  reasoning_content: (next[i].reasoning_content ?? '') + (data.reasoning_content ?? ''),
                };
                return { ...l, messages: next };
              });
            } else if (e.event === 'conversation.message.completed' && data.type !== 'verbose') {
              setLive((l) => {
                if (!l) return l;
                const i = l.messages.findIndex((m) => m.id === data.id);
                if (i < 0) return { ...l, messages: [...l.messages, data] };
                const next = [...l.messages];
                next[i] = data;
                return { ...l, messages: next };
              });
            }
          },
        );
      } finally {
        setSending(false);
        // The saved turn replaces the streamed one once it is read back (a new conversation's page reads its own).
        await qc.invalidateQueries({ queryKey: ['bots', 'messages', target.spaceId, target.botId] });
        // A new conversation is named after its first message when the turn ends.
        void qc.invalidateQueries({ queryKey: ['bots', 'conversations', target.spaceId, target.botId] });
        setLive(null);
        // A conversation this turn started is told once the turn is over: a page that then shows it (the chat page
        // opens it by its id) reads it whole, the answer included, instead of losing the answer still streaming.
        if (conversationId && conversationId !== target.conversationId) onConversation?.(conversationId);
      }
    },
    [api, qc, target.spaceId, target.botId, target.draft, target.conversationId, onConversation, beforeSend],
  );

  const stop = useCallback(async () => {
    const c = liveChat.current;
    if (!c) return;
    await api.call(BreakMessage, {
      space_id: target.spaceId,
      bot_id: target.botId,
      conversation_id: c.conversation_id,
      chat_id: c.id,
    });
  }, [api, target.spaceId, target.botId]);

  const conversation = useMemo(
    () => ({
      space_id: target.spaceId,
      bot_id: target.botId,
      draft: target.draft,
      conversation_id: saved.conversationId ?? undefined,
    }),
    [target.spaceId, target.botId, target.draft, saved.conversationId],
  );
  /** A call on the conversation shown, then the messages read again. */
  const after = useCallback(
    async <T>(call: Promise<T>) => {
      const r = await call;
      await refresh();
      return r;
    },
    [refresh],
  );
  /** The message calls name the conversation they act in (the debug conversation has one once a message is sent). */
  const inConversation = () => ({ ...conversation, conversation_id: conversation.conversation_id ?? '' });

  return {
    ...saved,
    loading: history.isPending && (target.draft || !!target.conversationId),
    hasEarlier: !!history.hasNextPage,
    loadEarlier: () => history.fetchNextPage(),
    live,
    sending,
    send,
    stop,
    clearContext: () => after(api.call(NewSection, conversation)),
    clearAll: () => after(api.call(ClearMessages, conversation)),
    remove: (messageId: string) => after(api.call(DeleteMessage, { ...inConversation(), message_id: messageId })),
    feedback: (messageId: string, feedback: 'like' | 'dislike' | null) =>
      after(api.call(ReportMessage, { ...inConversation(), message_id: messageId, feedback })),
  };
}
