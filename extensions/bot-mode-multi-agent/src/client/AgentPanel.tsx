// One agent's panel: its name, when the conversation comes to it (intent, keywords, a global jump), what answers for
// it (a persona and model or a chat-flow, drawn by that mode's own editor; a workflow; another published bot), its own
// skills, suggested replies, and the workflows called before and after it answers.
import {
  Button,
  Collapse,
  Input,
  InputTag,
  Popconfirm,
  Radio,
  Select,
  Space,
  Switch,
  Typography,
} from '@arco-design/web-react';
import { BotModeEditors, BotSkillPanels } from '@tessera/ext-bots/client';
import { useRegistry, useRegistryEntries } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import type { Agent, Hook } from '../shared.ts';
import { BotPick, WorkflowPick } from './Pickers.tsx';

export const label = { fontSize: 12, color: 'var(--color-text-2)', margin: '12px 0 4px' } as const;

export function AgentPanel({
  agent,
  isStart,
  spaceId,
  botId,
  onChange,
  onStart,
  onDelete,
}: {
  agent: Agent;
  isStart: boolean;
  spaceId: string;
  botId: string;
  onChange(patch: Partial<Agent>): void;
  onStart(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation('bot-mode-multi-agent');
  return (
    <div data-testid="multi-agent-agent">
      <div style={label}>{t('name')}</div>
      <Input value={agent.name} maxLength={50} onChange={(name) => onChange({ name })} data-testid="multi-agent-name" />
      {!isStart && (
        <>
          <div style={label}>{t('intent')}</div>
          <Input.TextArea
            value={agent.intent}
            maxLength={2000}
            autoSize={{ minRows: 2, maxRows: 5 }}
            placeholder={t('intentPlaceholder')}
            onChange={(intent) => onChange({ intent })}
            data-testid="multi-agent-intent"
          />
          <div style={label}>{t('keywords')}</div>
          <InputTag
            value={agent.keywords}
            onChange={(keywords: string[]) => onChange({ keywords })}
            placeholder={t('keywordsPlaceholder')}
            allowClear
            data-testid="multi-agent-keywords"
          />
          <Space style={{ marginTop: 8 }}>
            <Switch
              size="small"
              checked={agent.global_jump}
              onChange={(global_jump) => onChange({ global_jump })}
              data-testid="multi-agent-global"
            />
            <Typography.Text style={{ fontSize: 12 }}>{t('global')}</Typography.Text>
          </Space>
        </>
      )}
      <div style={label}>{t('answers')}</div>
      <Radio.Group
        type="button"
        size="small"
        value={agent.kind}
        onChange={(kind) => onChange({ kind })}
        data-testid="multi-agent-kind"
      >
        {(['llm', 'chatflow', 'workflow', 'bot'] as const).map((k) => (
          <Radio key={k} value={k}>
            {t(`kind.${k}`)}
          </Radio>
        ))}
      </Radio.Group>
      <div style={{ marginTop: 10 }}>
        <Answerer agent={agent} spaceId={spaceId} botId={botId} onChange={onChange} />
      </div>
      {agent.kind === 'llm' && <AgentSkills agent={agent} spaceId={spaceId} botId={botId} onChange={onChange} />}
      <div style={label}>{t('suggest')}</div>
      <Select
        value={agent.suggest_reply.mode}
        onChange={(mode) => onChange({ suggest_reply: { ...agent.suggest_reply, mode } })}
        data-testid="multi-agent-suggest"
      >
        {(['inherit', 'off', 'default', 'custom'] as const).map((m) => (
          <Select.Option key={m} value={m}>
            {t(`suggestMode.${m}`)}
          </Select.Option>
        ))}
      </Select>
      {agent.suggest_reply.mode === 'custom' && (
        <Input.TextArea
          style={{ marginTop: 6 }}
          value={agent.suggest_reply.prompt}
          maxLength={5000}
          autoSize={{ minRows: 2, maxRows: 5 }}
          placeholder={t('suggestPrompt')}
          onChange={(prompt) => onChange({ suggest_reply: { ...agent.suggest_reply, prompt } })}
        />
      )}
      <Hooks agent={agent} spaceId={spaceId} onChange={onChange} />
      <Space style={{ marginTop: 16 }}>
        {!isStart && (
          <Button size="small" onClick={onStart} data-testid="multi-agent-make-start">
            {t('makeStart')}
          </Button>
        )}
        {!isStart && (
          <Popconfirm title={t('deleteConfirm')} onOk={onDelete}>
            <Button size="small" status="danger" data-testid="multi-agent-delete">
              {t('delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    </div>
  );
}

/** What answers for the agent: the single-agent or chat-flow mode's own editor, a workflow, or a published bot. */
function Answerer({
  agent,
  spaceId,
  botId,
  onChange,
}: {
  agent: Agent;
  spaceId: string;
  botId: string;
  onChange(patch: Partial<Agent>): void;
}) {
  const { t } = useTranslation('bot-mode-multi-agent');
  const editors = useRegistry(BotModeEditors);
  if (agent.kind === 'workflow')
    return (
      <WorkflowPick
        spaceId={spaceId}
        value={agent.workflow_id}
        onChange={(workflow_id, workflow_name) => onChange({ workflow_id, workflow_name })}
        testId="multi-agent-workflow"
      />
    );
  if (agent.kind === 'bot')
    return (
      <BotPick
        spaceId={spaceId}
        except={botId}
        value={agent.bot_id}
        onChange={(bot_id, bot_name) => onChange({ bot_id, bot_name })}
        testId="multi-agent-bot"
      />
    );
  const Mode = editors.find((e) => e.key === (agent.kind === 'llm' ? 'single-agent' : 'chatflow'))?.Settings;
  if (!Mode) return <Typography.Text type="warning">{t('modeOff')}</Typography.Text>;
  const modeSettings =
    agent.kind === 'llm'
      ? { prompt: agent.prompt, model: agent.model }
      : { workflow_id: agent.workflow_id, workflow_name: agent.workflow_name };
  return (
    // oxlint-disable-next-line react/static-components
    <Mode
      settings={modeSettings}
      spaceId={spaceId}
      botId={botId}
      onChange={(next: Record<string, unknown>) =>
        onChange(
          agent.kind === 'llm'
            ? { prompt: String(next.prompt ?? ''), model: next.model as Agent['model'] }
            : { workflow_id: String(next.workflow_id ?? ''), workflow_name: next.workflow_name as string | undefined },
        )
      }
    />
  );
}

/** The workflows called before and after the agent answers (hook_info). */
function Hooks({ agent, spaceId, onChange }: { agent: Agent; spaceId: string; onChange(patch: Partial<Agent>): void }) {
  const { t } = useTranslation('bot-mode-multi-agent');
  const set = (when: 'before' | 'after', hook: Hook | undefined) =>
    onChange({ hooks: { ...agent.hooks, [when]: hook } });
  return (
    <div data-testid="multi-agent-hooks">
      {(['before', 'after'] as const).map((when) => {
        const hook = agent.hooks[when];
        return (
          <div key={when}>
            <div style={label}>{t(`hook.${when}`)}</div>
            <WorkflowPick
              spaceId={spaceId}
              value={hook?.workflow_id ?? ''}
              allowClear
              onChange={(workflow_id, workflow_name) =>
                set(when, workflow_id ? { workflow_id, workflow_name, strict: hook?.strict ?? false } : undefined)
              }
              testId={`multi-agent-hook-${when}`}
            />
            {hook && (
              <Space style={{ marginTop: 6 }}>
                <Switch size="small" checked={hook.strict} onChange={(strict) => set(when, { ...hook, strict })} />
                <Typography.Text style={{ fontSize: 12 }}>{t('hook.strict')}</Typography.Text>
              </Space>
            )}
          </div>
        );
      })}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('hook.help')}
      </Typography.Text>
    </div>
  );
}

/** The agent's own skills: each skill's panel, turned on for this agent alone. */
function AgentSkills({
  agent,
  spaceId,
  botId,
  onChange,
}: {
  agent: Agent;
  spaceId: string;
  botId: string;
  onChange(patch: Partial<Agent>): void;
}) {
  const { t } = useTranslation('bot-mode-multi-agent');
  const panels = useRegistryEntries(BotSkillPanels)
    .slice()
    .sort((a, b) => (a.value.order ?? 100) - (b.value.order ?? 100));
  const setSkill = (key: string, value: unknown) => {
    const skills = { ...agent.skills };
    if (value === undefined) delete skills[key];
    else skills[key] = value;
    onChange({ skills });
  };
  return (
    <div>
      <div style={label}>{t('skills')}</div>
      <Collapse bordered={false}>
        {panels.map(({ owner, value: p }) => {
          const on = agent.skills[p.key] !== undefined;
          const Panel = p.Panel;
          return (
            <Collapse.Item
              key={p.key}
              name={p.key}
              header={t(p.label, { ns: owner })}
              extra={
                <Switch
                  size="small"
                  checked={on}
                  onChange={(v) => setSkill(p.key, v ? p.empty() : undefined)}
                  onClick={(e) => e.stopPropagation()}
                />
              }
            >
              {on && (
                // oxlint-disable-next-line react/static-components
                <Panel
                  value={agent.skills[p.key]}
                  onChange={(v) => setSkill(p.key, v)}
                  spaceId={spaceId}
                  botId={botId}
                />
              )}
            </Collapse.Item>
          );
        })}
      </Collapse>
    </div>
  );
}
