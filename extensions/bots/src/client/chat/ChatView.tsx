// The chat of a bot: the editor's debug panel and the published bot's chat page both use it.
import {
  Button,
  Collapse,
  Input,
  Popconfirm,
  Popover,
  Space,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from '@arco-design/web-react';
import {
  IconDelete,
  IconRefresh,
  IconThumbDown,
  IconThumbUp,
  IconEraser,
  IconRecordStop,
  IconSend,
} from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useApi, useFormat, useRegistry } from '@tessera/sdk/client';
import { ChatAnswerActions, ChatComposerActions, ChatMessageViews } from '../points.ts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  expandShortcut,
  place,
  turnsOf,
  type ChatMessage,
  type Onboarding,
  type Shortcut,
  type Turn,
} from './types.ts';
import { useChat, type ChatTarget } from './useChat.ts';
import './chat.css';
import { GetChatTrace } from '../../shared/api.ts';

export interface ChatViewProps {
  target: ChatTarget;
  botName: string;
  onboarding?: Onboarding;
  shortcuts?: Shortcut[];
  onConversation?(id: string): void;
  /** Clear everything (the debug chat) besides clearing the context. */
  canClearAll?: boolean;
  /** Runs before each message is sent (the editor saves pending edits: the draft answers as saved). */
  beforeSend?(): Promise<void>;
}

export function ChatView({
  target,
  botName,
  onboarding,
  shortcuts = [],
  onConversation,
  canClearAll,
  beforeSend,
}: ChatViewProps) {
  const { t } = useTranslation('bots');
  const chat = useChat(target, onConversation, beforeSend);
  const composerActions = useRegistry(ChatComposerActions);
  // The chat sent here last: its answer is fresh (an answer action may act on it by itself, as read-aloud does).
  const [freshChat, setFreshChat] = useState('');
  const liveChatId = chat.live?.chat?.id;
  useEffect(() => {
    if (liveChatId) setFreshChat(liveChatId);
  }, [liveChatId]);
  const [text, setText] = useState('');
  const [composing, setComposing] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const turns = useMemo(() => {
    const all = turnsOf(chat.messages, chat.chats);
    if (chat.live) {
      const liveTurn: Turn = {
        chatId: chat.live.chat?.id ?? 'live',
        sectionId: chat.live.chat?.section_id ?? '',
        question: {
          id: 'live-q',
          conversation_id: '',
          chat_id: '',
          section_id: '',
          role: 'user',
          type: 'question',
          content: chat.live.question,
          created_at: Date.now() / 1000,
        },
        steps: [],
        outputs: [],
        followUps: [],
        chat: chat.live.chat,
      };
      for (const m of chat.live.messages) if (m.type !== 'question') place(liveTurn, m);
      // A regenerated turn replaces the one it answers again.
      return [...all.filter((x) => !chat.live!.regenChatId || x.chatId !== chat.live!.regenChatId), liveTurn];
    }
    return all;
  }, [chat.messages, chat.chats, chat.live]);
  // (In braces: newer browsers return a promise from scrollIntoView, which React would take for a cleanup.)
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [turns.length, chat.live?.messages]);

  const submit = (value = text) => {
    const q = expandShortcut(value, shortcuts).trim();
    if (!q || chat.sending) return;
    setText('');
    void chat.send(q);
  };
  const last = turns.at(-1);
  const matching = text.startsWith('/') ? shortcuts.filter((s) => s.command.startsWith(text.split(/\s/)[0])) : [];

  return (
    <div className="tessera-chat" data-testid="bot-chat">
      <div className="tessera-chat-messages" data-testid="chat-messages">
        {chat.hasEarlier && (
          <Button size="mini" type="text" onClick={() => void chat.loadEarlier()} data-testid="chat-earlier">
            {t('chat.earlier')}
          </Button>
        )}
        {chat.loading && <Spin />}
        {!chat.loading && !turns.length && (
          <div className="tessera-chat-onboarding" data-testid="chat-onboarding">
            <Typography.Title heading={6}>{botName}</Typography.Title>
            {onboarding?.prologue && <div className="tessera-chat-bubble assistant">{onboarding.prologue}</div>}
            <Space wrap>
              {onboarding?.suggested_questions.filter(Boolean).map((q) => (
                <Button key={q} size="small" shape="round" onClick={() => submit(q)} data-testid="chat-suggested">
                  {q}
                </Button>
              ))}
            </Space>
          </div>
        )}
        {turns.map((turn, i) => (
          <TurnView
            key={turn.chatId + (turn.question?.id ?? i)}
            turn={turn}
            newSection={
              i > 0 && turn.sectionId !== turns[i - 1].sectionId && !!turn.sectionId && !!turns[i - 1].sectionId
            }
            isLast={turn === last}
            fresh={!!turn.chatId && turn.chatId === freshChat}
            streaming={chat.sending && turn === last}
            onFollowUp={(q) => submit(q)}
            onRegenerate={() =>
              turn.chatId && void chat.send(turn.question?.content ?? '', { regenChatId: turn.chatId })
            }
            onDelete={(id) => void chat.remove(id)}
            onFeedback={(id, f) => void chat.feedback(id, f)}
            disabled={chat.sending}
            target={target}
          />
        ))}
        {!!turns.length && chat.sectionId && last?.sectionId && last.sectionId !== chat.sectionId && !chat.sending && (
          <div className="tessera-chat-divider">{t('chat.contextCleared')}</div>
        )}
        <div ref={end} />
      </div>
      {matching.length > 0 && (
        <div className="tessera-chat-shortcuts" data-testid="chat-shortcuts">
          {matching.map((s) => (
            <button key={s.id} type="button" onClick={() => setText(`${s.command} `)}>
              <b>{s.command}</b> {s.name}
              {s.description && <Typography.Text type="secondary"> · {s.description}</Typography.Text>}
            </button>
          ))}
        </div>
      )}
      <div className="tessera-chat-input">
        <Tooltip content={t('chat.clearContext')}>
          <Button
            icon={<IconEraser />}
            aria-label={t('chat.clearContext')}
            disabled={chat.sending || !turns.length}
            onClick={() => void chat.clearContext()}
            data-testid="chat-clear-context"
          />
        </Tooltip>
        {canClearAll && (
          <Popconfirm title={t('chat.clearAllConfirm')} onOk={() => void chat.clearAll()}>
            <Button
              icon={<IconDelete />}
              aria-label={t('chat.clearAll')}
              disabled={chat.sending || !turns.length}
              data-testid="chat-clear-all"
            />
          </Popconfirm>
        )}
        {composerActions.map(({ key, Action }) => (
          // oxlint-disable-next-line react/static-components
          <Action
            key={key}
            spaceId={target.spaceId}
            botId={target.botId}
            draft={target.draft}
            busy={chat.sending}
            send={(q: string) => submit(q)}
          />
        ))}
        <Input.TextArea
          value={text}
          onChange={setText}
          placeholder={shortcuts.length ? t('chat.placeholderShortcuts') : t('chat.placeholder')}
          autoSize={{ minRows: 1, maxRows: 6 }}
          onCompositionStart={() => setComposing(true)}
          onCompositionEnd={() => setComposing(false)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !composing) {
              e.preventDefault();
              submit();
            }
          }}
          data-testid="chat-input"
        />
        {chat.sending ? (
          <Button status="danger" icon={<IconRecordStop />} onClick={() => void chat.stop()} data-testid="chat-stop">
            {t('chat.stop')}
          </Button>
        ) : (
          <Button
            type="primary"
            icon={<IconSend />}
            disabled={!text.trim()}
            onClick={() => submit()}
            data-testid="chat-send"
          >
            {t('chat.send')}
          </Button>
        )}
      </div>
    </div>
  );
}

function TurnView({
  turn,
  newSection,
  isLast,
  fresh,
  streaming,
  onFollowUp,
  onRegenerate,
  onDelete,
  onFeedback,
  disabled,
  target,
}: {
  turn: Turn;
  newSection: boolean;
  isLast: boolean;
  fresh: boolean;
  streaming: boolean;
  onFollowUp(q: string): void;
  onRegenerate(): void;
  onDelete(id: string): void;
  onFeedback(id: string, f: 'like' | 'dislike' | null): void;
  disabled: boolean;
  target: ChatTarget;
}) {
  const { t } = useTranslation('bots');
  const answerActions = useRegistry(ChatAnswerActions);
  const status = turn.chat?.status;
  // A card that stands for the answer (bound with llm_text_card off): the model's text is not shown beside it.
  const hideText = turn.outputs.some((m) => m.meta_data?.llm_text === 'hide');
  return (
    <div className="tessera-chat-turn" data-testid="chat-turn" data-status={status ?? ''}>
      {newSection && <div className="tessera-chat-divider">{t('chat.contextCleared')}</div>}
      {turn.question && (
        <div className="tessera-chat-row user">
          <div className="tessera-chat-bubble user" data-testid="chat-question">
            {turn.question.content}
          </div>
          {!streaming && turn.question.id !== 'live-q' && (
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('chat.delete')}
              onClick={() => onDelete(turn.question!.id)}
              disabled={disabled}
              className="tessera-chat-hover"
              data-testid="chat-delete"
            />
          )}
        </div>
      )}
      {turn.steps.length > 0 && <Steps steps={turn.steps} />}
      {turn.outputs.map((m) => (
        <div className="tessera-chat-row assistant" key={m.id}>
          <ToolOutput message={m} place={target} send={onFollowUp} disabled={disabled} />
        </div>
      ))}
      <div className="tessera-chat-row assistant">
        <div className="tessera-chat-bubble assistant" data-testid="chat-answer">
          {turn.answer?.meta_data?.agent_name && (
            <div className="tessera-chat-agent" data-testid="chat-agent">
              {turn.answer.meta_data.agent_name}
            </div>
          )}
          {turn.answer?.reasoning_content && (
            <details className="tessera-chat-reasoning">
              <summary>{t('chat.reasoning')}</summary>
              {turn.answer.reasoning_content}
            </details>
          )}
          {(hideText ? '' : turn.answer?.content) || (streaming && !turn.outputs.length ? <Spin size={14} /> : null)}
          {status === 'failed' && (
            <Typography.Text type="error" data-testid="chat-error" style={{ display: 'block' }}>
              {turn.chat?.last_error?.msg || t('chat.failed')}
            </Typography.Text>
          )}
          {status === 'canceled' && (
            <Typography.Text type="secondary" data-testid="chat-stopped" style={{ display: 'block', fontSize: 12 }}>
              {t('chat.stopped')}
            </Typography.Text>
          )}
        </div>
      </div>
      {!streaming && turn.answer && (
        <Space size={2} className="tessera-chat-actions">
          <Tooltip content={t('chat.like')}>
            <Button
              size="mini"
              type={turn.answer.feedback === 'like' ? 'primary' : 'text'}
              icon={<IconThumbUp />}
              aria-label={t('chat.like')}
              onClick={() => onFeedback(turn.answer!.id, turn.answer!.feedback === 'like' ? null : 'like')}
              data-testid="chat-like"
            />
          </Tooltip>
          <Tooltip content={t('chat.dislike')}>
            <Button
              size="mini"
              type={turn.answer.feedback === 'dislike' ? 'primary' : 'text'}
              icon={<IconThumbDown />}
              aria-label={t('chat.dislike')}
              onClick={() => onFeedback(turn.answer!.id, turn.answer!.feedback === 'dislike' ? null : 'dislike')}
              data-testid="chat-dislike"
            />
          </Tooltip>
          {isLast && (
            <Tooltip content={t('chat.regenerate')}>
              <Button
                size="mini"
                type="text"
                icon={<IconRefresh />}
                aria-label={t('chat.regenerate')}
                onClick={onRegenerate}
                disabled={disabled}
                data-testid="chat-regenerate"
              />
            </Tooltip>
          )}
          {turn.chat && <TraceButton turn={turn} target={target} />}
          {answerActions.map(({ key, Action }) => (
            // oxlint-disable-next-line react/static-components
            <Action
              key={key}
              spaceId={target.spaceId}
              botId={target.botId}
              draft={target.draft}
              messageId={turn.answer!.id}
              text={turn.answer!.content}
              fresh={isLast && fresh && !streaming}
            />
          ))}
        </Space>
      )}
      {isLast && !streaming && turn.followUps.length > 0 && (
        <Space wrap className="tessera-chat-followups">
          {turn.followUps.map((f) => (
            <Button
              key={f.id}
              size="mini"
              shape="round"
              onClick={() => onFollowUp(f.content)}
              data-testid="chat-follow-up"
            >
              {f.content}
            </Button>
          ))}
        </Space>
      )}
    </div>
  );
}

/** An answer showing a tool's output: drawn by the view of its content type (a card), else as its text. */
function ToolOutput({
  message,
  place,
  send,
  disabled,
}: {
  message: ChatMessage;
  place: ChatTarget;
  send(text: string): void;
  disabled: boolean;
}) {
  const views = useRegistry(ChatMessageViews);
  const view = views.find((v) => v.contentType === message.content_type);
  if (!view)
    return (
      <div className="tessera-chat-bubble assistant" data-testid="chat-output">
        {message.content_type === 'text' ? message.content : message.content.slice(0, 2000)}
      </div>
    );
  const View = view.View;
  return (
    <div data-testid="chat-output">
      <View
        content={message.content}
        spaceId={place.spaceId}
        botId={place.botId}
        draft={place.draft}
        send={send}
        disabled={disabled}
      />
    </div>
  );
}

/** Tool calls and their results, collapsed under one line. */
function Steps({ steps }: { steps: ChatMessage[] }) {
  const { t } = useTranslation('bots');
  const calls = steps.filter((s) => s.type === 'function_call').map((s) => parse(s.content));
  const results = new Map(steps.filter((s) => s.type === 'tool_response').map((s, i) => [i, s.content]));
  const failed = steps.some((s) => s.type === 'tool_response' && s.content.startsWith('{"error":'));
  return (
    <Collapse bordered={false} className="tessera-chat-steps" data-testid="chat-steps">
      <Collapse.Item
        name="steps"
        header={
          <span>
            {t('chat.steps', { count: calls.length })}
            {failed && (
              <Tag color="red" size="small" style={{ marginLeft: 6 }}>
                {t('chat.toolFailed')}
              </Tag>
            )}
          </span>
        }
      >
        {calls.map((c, i) => (
          <div key={i} className="tessera-chat-step" data-testid="chat-step">
            <Typography.Text bold>{String(c?.name ?? '')}</Typography.Text>
            <pre>{JSON.stringify(c?.arguments ?? {}, null, 2)}</pre>
            {results.has(i) && <pre className="result">{pretty(results.get(i)!)}</pre>}
          </div>
        ))}
      </Collapse.Item>
    </Collapse>
  );
}

/** The turn's trace: status, tokens, and each step (skills, tool calls, the answer) on a time line. */
function TraceButton({ turn, target }: { turn: Turn; target: ChatTarget }) {
  const { t } = useTranslation('bots');
  const format = useFormat();
  const api = useApi();
  const [open, setOpen] = useState(false);
  const c = turn.chat!;
  const q = useQuery({
    queryKey: ['bots', 'trace', c.id],
    enabled: open,
    queryFn: () =>
      api.call(GetChatTrace, {
        space_id: target.spaceId,
        bot_id: target.botId,
        conversation_id: c.conversation_id,
        chat_id: c.id,
      }),
  });
  const spans = q.data?.spans ?? [];
  const total = Math.max(1, ...spans.map((s) => s.end_ms));
  return (
    <Popover
      trigger="click"
      popupVisible={open}
      onVisibleChange={setOpen}
      content={
        <div data-testid="chat-trace" style={{ fontSize: 12, lineHeight: 1.8, width: 320 }}>
          <div>
            {t('trace.status')}: {t(`status.${c.status}`, { defaultValue: c.status })}
          </div>
          <div>
            {t('trace.tokens')}: {format.number(c.usage?.token_count ?? 0)} ({format.number(c.usage?.input_count ?? 0)}{' '}
            + {format.number(c.usage?.output_count ?? 0)})
          </div>
          {q.isLoading && <Spin size={12} />}
          {spans.map((s, i) => (
            <div
              key={i}
              className="tessera-chat-span"
              data-testid="chat-trace-span"
              data-kind={s.kind}
              title={s.attributes?.error ? String(s.attributes.error) : undefined}
            >
              <span className="label">
                {s.kind === 'turn'
                  ? t('trace.total')
                  : s.kind === 'tool'
                    ? s.name
                    : t(`trace.kind.${s.kind}`, { defaultValue: s.name })}
              </span>
              <span className="bar">
                <span
                  style={{
                    left: `${(s.start_ms / total) * 100}%`,
                    width: `${Math.max(1, ((s.end_ms - s.start_ms) / total) * 100)}%`,
                    background: s.status === 'error' ? 'rgb(var(--red-6))' : undefined,
                  }}
                />
              </span>
              <span className="ms">{format.number(s.end_ms - s.start_ms)} ms</span>
            </div>
          ))}
          <div>
            {t('trace.chatId')}: <Typography.Text copyable>{c.id}</Typography.Text>
          </div>
        </div>
      }
    >
      <Button size="mini" type="text" data-testid="chat-trace-open">
        {t('trace.open')}
      </Button>
    </Popover>
  );
}

function parse(s: string): any {
  try {
    return JSON.parse(s);
  } catch {
    return { name: s };
  }
}
function pretty(s: string) {
  try {
    return JSON.stringify(JSON.parse(s), null, 2);
  } catch {
    return s;
  }
}
