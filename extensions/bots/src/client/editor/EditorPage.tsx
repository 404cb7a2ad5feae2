// The bot editor: persona and settings / skills / preview chat, saved as you type.
import {
  Alert,
  Button,
  Collapse,
  Empty,
  Input,
  Popover,
  Select,
  Space,
  Spin,
  Switch,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import {
  MergeDialog,
  BackLink,
  ResourceActionsBar,
  type ResourceEditorProps,
  useApi,
  usePageTitle,
  useRegistry,
  useRegistryEntries,
  useStudio,
} from '@tessera/sdk/client';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { BotModeEditors, BotSkillPanels } from '../points.ts';
import type { BotInfo, Capabilities } from '../api.ts';
import { ChatView } from '../chat/ChatView.tsx';
import { BotIcon, IconPicker } from '../BotIcon.tsx';
import { useSpaceId } from '../space.ts';
import { OnboardingPanel, ShortcutsPanel, SuggestReplyPanel } from './Panels.tsx';
import { PublishButton } from './Publish.tsx';
import { useDraft, type SaveState } from './useDraft.ts';
import { BotPresence, useFieldPresence } from './live.tsx';
import { useFieldLabel } from './fields.ts';
import './editor.css';
import { GetBotInfo, GetCapabilities } from '../../shared/api.ts';

/** The editor's page (`/bots/:bot_id`), or the editor held by another page (a project's tab). */
export function EditorPage(props: Partial<ResourceEditorProps>) {
  const route = useParams();
  const botId = props.id ?? route.bot_id;
  const [params] = useSearchParams();
  const current = useSpaceId();
  const spaceId = props.spaceId ?? params.get('space_id') ?? current;
  const api = useApi();
  const { t } = useTranslation('bots');
  const info = useQuery({
    queryKey: ['bots', 'info', spaceId, botId],
    enabled: !!spaceId && !!botId,
    queryFn: () => api.call(GetBotInfo, { space_id: spaceId ?? '', bot_id: botId ?? '' }),
    staleTime: 0,
    gcTime: 0,
  });
  const caps = useQuery({
    // The connectors are the space's (custom connectors installed there); the modes and skills the studio's.
    queryKey: ['bots', 'capabilities', spaceId],
    queryFn: () => api.call(GetCapabilities, { space_id: spaceId ?? undefined }),
    enabled: !!spaceId,
  });
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  if (info.isError) return <Empty description={t('editor.missing')} />;
  if (!info.data || !caps.data) return <Spin style={{ margin: 40 }} />;
  return (
    <Editor
      key={botId}
      spaceId={spaceId}
      initial={info.data.bot_info}
      caps={caps.data}
      backTo={props.embedded?.backTo}
    />
  );
}

function Editor({
  spaceId,
  initial,
  caps,
  backTo,
}: {
  spaceId: string;
  initial: BotInfo;
  caps: Capabilities;
  /** Held by another page: where the back arrow goes. */ backTo?: string;
}) {
  const { t } = useTranslation('bots');
  const { language } = useStudio();
  const draft = useDraft(spaceId, initial);
  const fieldLabel = useFieldLabel();
  const { bot } = draft;
  usePageTitle(bot.name);
  const modeEditors = useRegistry(BotModeEditors);
  const skillPanels = useRegistryEntries(BotSkillPanels);
  // A panel shows only when its skill runs on the server (its labels are in its owner's namespace).
  const panels = useMemo(() => {
    const running = new Set(caps.skills.map((s) => s.key));
    return skillPanels
      .filter((e) => running.has(e.value.key))
      .map((e) => ({ ...e.value, ns: e.owner }))
      .sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
  }, [skillPanels, caps]);
  const modes = caps.modes.filter((m) => modeEditors.some((e) => e.key === m.key));
  const ModeSettings = modeEditors.find((e) => e.key === bot.config.mode)?.Settings;
  const [mobileTab, setMobileTab] = useState<'settings' | 'skills' | 'chat'>('settings');
  const config = bot.config;
  const root = useRef<HTMLDivElement>(null);
  useFieldPresence(draft.live.doc, root);

  return (
    <div
      ref={root}
      className="tessera-bot-editor"
      data-testid="bot-editor"
      data-mobile-tab={mobileTab}
      style={backTo ? { height: '100%' } : undefined}
    >
      <header className="tessera-bot-editor-header">
        <BackLink to={backTo ?? '/bots'} label={t('editor.back')} testId="bot-back" />
        <Popover
          trigger="click"
          content={
            <IconPicker name={bot.name} value={bot.icon_uri} onChange={(icon_uri) => draft.change({ icon_uri })} />
          }
        >
          <button
            type="button"
            aria-label={t('form.icon')}
            style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer' }}
            data-testid="bot-icon"
          >
            <BotIcon bot={bot} size={28} />
          </button>
        </Popover>
        <Input
          className="tessera-bot-name"
          value={bot.name}
          maxLength={100}
          onChange={(name) => draft.change({ name })}
          aria-label={t('form.name')}
          data-testid="bot-name"
          status={draft.problem && draft.state === 'failed' ? 'error' : undefined}
        />
        <SaveBadge state={draft.state} />
        {bot.latest_version && (
          <Tag color={bot.has_unpublished_changes ? 'orange' : 'green'} data-testid="bot-version">
            {bot.has_unpublished_changes
              ? t('editor.changedSince', { version: bot.latest_version })
              : bot.latest_version}
          </Tag>
        )}
        <span style={{ flex: 1 }} />
        <BotPresence peers={draft.live.peers} />
        {bot.latest_version && (
          <Link to={`/bots/${bot.bot_id}/chat?space_id=${spaceId}`} data-testid="bot-open-chat-page">
            {t('editor.chatPage')}
          </Link>
        )}
        <ResourceActionsBar kind="bot" spaceId={spaceId} resourceId={bot.bot_id} />
        <PublishButton spaceId={spaceId} bot={bot} caps={caps} beforePublish={draft.save} onPublished={draft.replace} />
      </header>
      {draft.state === 'conflict' && (
        <Alert
          type="warning"
          content={draft.problem}
          action={
            <Button size="mini" onClick={() => void draft.reload()} data-testid="bot-reload">
              {t('editor.reload')}
            </Button>
          }
          data-testid="bot-conflict"
        />
      )}
      {draft.merge && (
        <MergeDialog
          conflicts={draft.merge.conflicts}
          label={fieldLabel}
          texts={{
            title: t('editor.mergeTitle'),
            intro: t('editor.mergeIntro'),
            yours: t('editor.mergeYours'),
            theirs: t('editor.mergeTheirs'),
            save: t('editor.mergeSave'),
            discard: t('editor.mergeDiscard'),
          }}
          onResolve={(choices) => void draft.saveMerge(draft.merge!, choices)}
          onDiscard={() => void draft.reload()}
        />
      )}
      {draft.state === 'failed' && draft.problem && (
        <Alert type="error" content={draft.problem} data-testid="bot-save-problem" />
      )}
      <nav className="tessera-bot-editor-tabs" aria-label={t('editor.columns')}>
        {(['settings', 'skills', 'chat'] as const).map((k) => (
          <button key={k} type="button" aria-pressed={mobileTab === k} onClick={() => setMobileTab(k)}>
            {t(`editor.tab.${k}`)}
          </button>
        ))}
      </nav>
      <div className="tessera-bot-editor-columns">
        <section className="tessera-bot-col settings" aria-label={t('editor.tab.settings')}>
          <Typography.Title heading={6}>{t('editor.persona')}</Typography.Title>
          {modes.length > 1 && (
            <Select
              value={config.mode}
              onChange={(mode) => draft.changeConfig({ mode, settings: {} })}
              style={{ marginBottom: 8 }}
              data-testid="bot-mode"
              aria-label={t('editor.mode')}
            >
              {modes.map((m) => (
                <Select.Option key={m.key} value={m.key}>
                  {m.label[language] ?? m.key}
                </Select.Option>
              ))}
            </Select>
          )}
          {ModeSettings ? (
            <ModeSettings
              settings={config.settings}
              onChange={(settings: Record<string, unknown>) => draft.changeConfig({ settings })}
              spaceId={spaceId}
              botId={bot.bot_id}
            />
          ) : (
            <Alert type="warning" content={t('editor.modeMissing', { mode: config.mode })} />
          )}
          <Collapse bordered={false} defaultActiveKey={['onboarding']} style={{ marginTop: 12 }}>
            <Collapse.Item name="onboarding" header={t('editor.onboarding')}>
              <OnboardingPanel
                value={config.onboarding}
                onChange={(onboarding) => draft.changeConfig({ onboarding })}
              />
            </Collapse.Item>
            <Collapse.Item name="suggest" header={t('editor.suggestReply')}>
              <SuggestReplyPanel
                value={config.suggest_reply}
                onChange={(suggest_reply) => draft.changeConfig({ suggest_reply })}
              />
            </Collapse.Item>
            <Collapse.Item name="shortcuts" header={t('editor.shortcuts')}>
              <ShortcutsPanel value={config.shortcuts} onChange={(shortcuts) => draft.changeConfig({ shortcuts })} />
            </Collapse.Item>
          </Collapse>
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 12 }}>
            {t('form.desc')}
          </Typography.Text>
          <Input.TextArea
            value={bot.description}
            maxLength={2000}
            showWordLimit
            autoSize={{ minRows: 2, maxRows: 5 }}
            onChange={(description) => draft.change({ description })}
            data-testid="bot-description"
          />
        </section>
        <section className="tessera-bot-col skills" aria-label={t('editor.tab.skills')} data-testid="bot-skills">
          <Typography.Title heading={6}>{t('editor.skills')}</Typography.Title>
          {!panels.length && <Typography.Text type="secondary">{t('editor.noSkills')}</Typography.Text>}
          {panels.map((p) => {
            const on = config.skills[p.key] !== undefined;
            const value = config.skills[p.key];
            const setSkill = (v: unknown) => draft.changeConfig({ skills: { ...config.skills, [p.key]: v } });
            return (
              <div key={p.key} className="tessera-bot-skill" data-testid={`bot-skill-${p.key}`}>
                <div className="tessera-bot-skill-head">
                  <Typography.Text bold>{t(p.label, { ns: p.ns })}</Typography.Text>
                  {on && p.count && <Tag size="small">{p.count(value)}</Tag>}
                  <span style={{ flex: 1 }} />
                  <Switch
                    size="small"
                    checked={on}
                    aria-label={t(p.label, { ns: p.ns })}
                    onChange={(v) => {
                      const next = { ...config.skills };
                      if (v) next[p.key] = p.empty();
                      else delete next[p.key];
                      draft.changeConfig({ skills: next });
                    }}
                    data-testid={`bot-skill-toggle-${p.key}`}
                  />
                </div>
                {p.description && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t(p.description, { ns: p.ns })}
                  </Typography.Text>
                )}
                {on && <p.Panel value={value} onChange={setSkill} spaceId={spaceId} botId={bot.bot_id} />}
              </div>
            );
          })}
        </section>
        <section className="tessera-bot-col chat" aria-label={t('editor.tab.chat')}>
          <Space style={{ padding: '8px 12px', justifyContent: 'space-between', width: '100%' }}>
            <Typography.Title heading={6} style={{ margin: 0 }}>
              {t('editor.preview')}
            </Typography.Title>
          </Space>
          <ChatView
            target={{ spaceId, botId: bot.bot_id, draft: true }}
            botName={bot.name}
            onboarding={config.onboarding}
            shortcuts={config.shortcuts}
            canClearAll
            beforeSend={draft.save}
          />
        </section>
      </div>
    </div>
  );
}

function SaveBadge({ state }: { state: SaveState }) {
  const { t } = useTranslation('bots');
  const color = state === 'saved' ? 'green' : state === 'conflict' || state === 'failed' ? 'red' : 'gray';
  return (
    <Tag color={color} data-testid="bot-save-state" data-state={state}>
      {t(`save.${state}`)}
    </Tag>
  );
}
