// The multi-agent editor: the agents on a canvas (the start agent, and a jump line to each agent it hands over to),
// how the conversation is routed, and the selected agent's panel: its name, intent and keywords, and what answers
// for it, drawn by that mode's own editor (single agent or chat-flow) with the agent's own skills.
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
  Tag,
  Typography,
} from '@arco-design/web-react';
import { BotModeEditors, BotSkillPanels, type BotModeSettingsProps } from '@tessera/ext-bots/client';
import { ModelSelect } from '@tessera/ext-models/client';
import { SidePanel, useRegistry, useRegistryEntries } from '@tessera/sdk/client';
import { Background, Controls, ReactFlow, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Agent, MultiAgentSettings } from '../shared.ts';

const label = { fontSize: 12, color: 'var(--color-text-2)', margin: '12px 0 4px' } as const;

export function MultiAgentEditor({ settings, onChange, spaceId, botId }: BotModeSettingsProps) {
  const { t } = useTranslation('bot-mode-multi-agent');
  const s = MultiAgentSettings.parse(settings ?? {});
  const set = (patch: Partial<MultiAgentSettings>) => onChange({ ...s, ...patch });
  const setAgent = (id: string, patch: Partial<Agent>) =>
    set({ agents: s.agents.map((a) => (a.id === id ? { ...a, ...patch } : a)) });
  const [open, setOpen] = useState<string | null>(null);
  const opened = s.agents.find((a) => a.id === open);

  const nodes: Node[] = useMemo(
    () =>
      s.agents.map((a, i) => ({
        id: a.id,
        position: a.position.x || a.position.y ? a.position : { x: a.id === s.start_agent_id ? 0 : 220, y: i * 90 },
        data: {
          label: (
            <div data-testid="multi-agent-node" data-agent={a.id}>
              <strong>{a.name}</strong>
              {a.id === s.start_agent_id && (
                <Tag size="small" color="green" style={{ marginLeft: 4 }}>
                  {t('start')}
                </Tag>
              )}
              <div style={{ fontSize: 11, color: 'var(--color-text-3)' }}>{a.intent || t(`kind.${a.kind}`)}</div>
            </div>
          ),
        },
        style: { width: 180, borderRadius: 8, fontSize: 12 },
      })),
    [s.agents, s.start_agent_id, t],
  );
  const edges: Edge[] = s.agents
    .filter((a) => a.id !== s.start_agent_id)
    .map((a) => ({ id: `${s.start_agent_id}-${a.id}`, source: s.start_agent_id, target: a.id, animated: true }));

  const addAgent = () => {
    let n = s.agents.length;
    while (s.agents.some((a) => a.id === `agent-${n}`)) n++;
    const agent = Agent.parse({
      id: `agent-${n}`,
      name: t('newAgent', { n }),
      position: { x: 220, y: s.agents.length * 90 },
      model: s.agents.find((a) => a.id === s.start_agent_id)?.model ?? {},
    });
    set({ agents: [...s.agents, agent] });
    setOpen(agent.id);
  };

  return (
    <div data-testid="multi-agent-settings" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div
        style={{ height: 300, border: '1px solid var(--color-border-2)', borderRadius: 8 }}
        data-testid="multi-agent-canvas"
      >
        <ReactFlow
          // Fitted again when an agent is added or removed.
          key={s.agents.length}
          nodes={nodes}
          edges={edges}
          fitView
          fitViewOptions={{ maxZoom: 1, padding: 0.2 }}
          nodesConnectable={false}
          onNodeClick={(_, n) => setOpen(n.id)}
          onNodeDragStop={(_, n) =>
            setAgent(n.id, { position: { x: Math.round(n.position.x), y: Math.round(n.position.y) } })
          }
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
      <Button size="small" onClick={addAgent} disabled={s.agents.length >= 20} data-testid="multi-agent-add">
        {t('add')}
      </Button>
      <div style={label}>{t('router')}</div>
      <Radio.Group
        type="button"
        size="small"
        value={s.router.mode}
        onChange={(mode) => set({ router: { ...s.router, mode } })}
        data-testid="multi-agent-router"
      >
        <Radio value="model">{t('routerModel')}</Radio>
        <Radio value="rules">{t('routerRules')}</Radio>
      </Radio.Group>
      {s.router.mode === 'model' && (
        <ModelSelect
          spaceId={spaceId}
          value={s.router.model_id || undefined}
          onChange={(model_id) => set({ router: { ...s.router, model_id } })}
        />
      )}
      <div style={label}>{t('jump')}</div>
      <Select value={s.jump} onChange={(jump) => set({ jump })} data-testid="multi-agent-jump">
        <Select.Option value="keep">{t('jumpKeep')}</Select.Option>
        <Select.Option value="reroute">{t('jumpReroute')}</Select.Option>
      </Select>
      {s.jump === 'keep' && (
        <>
          <div style={label}>{t('back')}</div>
          <InputTag
            value={s.back_keywords}
            onChange={(back_keywords: string[]) => set({ back_keywords })}
            placeholder={t('backPlaceholder')}
            allowClear
          />
        </>
      )}
      {opened && (
        <SidePanel
          visible
          title={opened.name}
          onCancel={() => setOpen(null)}
          size="medium"
          data-testid="multi-agent-panel"
        >
          <AgentPanel
            agent={opened}
            isStart={opened.id === s.start_agent_id}
            spaceId={spaceId}
            botId={botId}
            onChange={(patch) => setAgent(opened.id, patch)}
            onStart={() => set({ start_agent_id: opened.id })}
            onDelete={() => {
              setOpen(null);
              set({ agents: s.agents.filter((a) => a.id !== opened.id) });
            }}
          />
        </SidePanel>
      )}
    </div>
  );
}

function AgentPanel({
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
  // What answers for the agent is that mode's own editor (single agent, chat-flow).
  const editors = useRegistry(BotModeEditors);
  const Mode = editors.find((e) => e.key === (agent.kind === 'llm' ? 'single-agent' : 'chatflow'))?.Settings;
  const modeSettings =
    agent.kind === 'llm'
      ? { prompt: agent.prompt, model: agent.model }
      : { workflow_id: agent.workflow_id, workflow_name: agent.workflow_name };
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
        </>
      )}
      <div style={label}>{t('answers')}</div>
      <Radio.Group type="button" size="small" value={agent.kind} onChange={(kind) => onChange({ kind })}>
        <Radio value="llm">{t('kind.llm')}</Radio>
        <Radio value="chatflow">{t('kind.chatflow')}</Radio>
      </Radio.Group>
      <div style={{ marginTop: 10 }}>
        {Mode ? (
          // oxlint-disable-next-line react/static-components
          <Mode
            settings={modeSettings}
            spaceId={spaceId}
            botId={botId}
            onChange={(next: Record<string, unknown>) =>
              onChange(
                agent.kind === 'llm'
                  ? { prompt: String(next.prompt ?? ''), model: next.model as Agent['model'] }
                  : {
                      workflow_id: String(next.workflow_id ?? ''),
                      workflow_name: next.workflow_name as string | undefined,
                    },
              )
            }
          />
        ) : (
          <Typography.Text type="warning">{t('modeOff')}</Typography.Text>
        )}
      </div>
      {agent.kind === 'llm' && <AgentSkills agent={agent} spaceId={spaceId} botId={botId} onChange={onChange} />}
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
