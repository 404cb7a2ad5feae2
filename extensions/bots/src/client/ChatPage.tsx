// A published bot's chat page: the member's conversations with it, a new chat, the history.
import { Button, Empty, Popconfirm, Spin, Typography } from '@arco-design/web-react';
import { IconDelete, IconMenu, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BackLink, useApi, useFormat, usePageTitle } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { BotIcon } from './BotIcon.tsx';
import { ChatView } from './chat/ChatView.tsx';
import { useSpaceId } from './space.ts';
import { DeleteConversation, ListConversations, PublishedInfo } from '../shared/api.ts';
import './chat-page.css';

export function ChatPage() {
  const { t } = useTranslation('bots');
  const { bot_id: botId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const current = useSpaceId();
  const spaceId = params.get('space_id') ?? current ?? '';
  const conversationId = params.get('conversation_id') ?? undefined;
  const api = useApi();
  const qc = useQueryClient();
  const format = useFormat();
  const [listOpen, setListOpen] = useState(false);
  const bot = useQuery({
    queryKey: ['bots', 'published', spaceId, botId],
    enabled: !!spaceId,
    queryFn: () => api.call(PublishedInfo, { space_id: spaceId, bot_id: botId }, { suppressNotice: true }),
    retry: false,
  });
  usePageTitle(bot.data?.name);
  const list = useQuery({
    queryKey: ['bots', 'conversations', spaceId, botId],
    enabled: !!bot.data,
    queryFn: () => api.call(ListConversations, { space_id: spaceId, bot_id: botId }),
  });
  const open = (id?: string) => {
    setParams((p) => {
      if (id) p.set('conversation_id', id);
      else p.delete('conversation_id');
      return p;
    });
    setListOpen(false);
  };
  const remove = useMutation({
    mutationFn: (id: string) => api.call(DeleteConversation, { space_id: spaceId, bot_id: botId, conversation_id: id }),
    onSuccess: async (_r, id) => {
      if (id === conversationId) open(undefined);
      await qc.invalidateQueries({ queryKey: ['bots', 'conversations', spaceId, botId] });
    },
  });
  if (bot.isError) return <Empty style={{ marginTop: 60 }} description={t('chatPage.unavailable')} />;
  if (!bot.data) return <Spin style={{ margin: 40 }} />;
  return (
    <div className="tessera-chat-page" data-testid="bot-chat-page" data-list-open={listOpen}>
      <aside className="tessera-chat-page-list" aria-label={t('chatPage.conversations')}>
        <div className="tessera-chat-page-bot">
          <BotIcon bot={bot.data} size={36} />
          <div style={{ minWidth: 0 }}>
            <Typography.Text bold style={{ display: 'block' }}>
              {bot.data.name}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {bot.data.version}
            </Typography.Text>
          </div>
        </div>
        <Button long icon={<IconPlus />} onClick={() => open(undefined)} data-testid="chat-new">
          {t('chatPage.new')}
        </Button>
        <div className="tessera-chat-page-items" data-testid="chat-conversations">
          {(list.data?.conversations ?? []).map((c) => (
            <div
              key={c.id}
              className="tessera-chat-page-item"
              aria-current={c.id === conversationId}
              data-testid="chat-conversation"
            >
              <button type="button" onClick={() => open(c.id)}>
                <span className="name">{c.name || t('chatPage.untitled')}</span>
                <span className="time">{format.dateTime(c.updated_at * 1000)}</span>
              </button>
              <Popconfirm title={t('chatPage.deleteConfirm')} onOk={() => remove.mutate(c.id)}>
                <Button size="mini" type="text" icon={<IconDelete />} aria-label={t('chatPage.delete')} />
              </Popconfirm>
            </div>
          ))}
        </div>
      </aside>
      <main className="tessera-chat-page-main">
        <header className="tessera-chat-page-header">
          <Button
            className="tessera-chat-page-menu"
            size="small"
            icon={<IconMenu />}
            aria-label={t('chatPage.conversations')}
            onClick={() => setListOpen((v) => !v)}
            data-testid="chat-list-toggle"
          />
          <BackLink to="/bots" label={t('editor.back')} />
          <Typography.Text bold>{bot.data.name}</Typography.Text>
        </header>
        <ChatView
          key={conversationId ?? 'new'}
          target={{ spaceId, botId, draft: false, conversationId }}
          botName={bot.data.name}
          onboarding={bot.data.onboarding}
          shortcuts={bot.data.shortcuts}
          onConversation={(id) => {
            void qc.invalidateQueries({ queryKey: ['bots', 'conversations', spaceId, botId] });
            setParams((p) => (p.set('conversation_id', id), p), { replace: true });
          }}
        />
      </main>
    </div>
  );
}
