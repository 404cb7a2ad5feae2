// The multi-agent editor: the agents on a canvas with the jump lines between them (drawn from an agent to the one it
// hands over to; selected and deleted with the Delete key), how the conversation is routed and who answers next, and
// the selected agent's panel (AgentPanel).
import { Button, InputTag, Radio, Select, Tag, Typography } from '@arco-design/web-react';
import type { BotModeSettingsProps } from '@tessera/ext-bots/client';
import { ModelSelect } from '@tessera/ext-models/client';
import { SidePanel } from '@tessera/sdk/client';
import { Background, Controls, ReactFlow, type Connection, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Agent, MultiAgentSettings, linksOf } from '../shared.ts';
import { AgentPanel, label } from './AgentPanel.tsx';

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
              {a.global_jump && (
                <Tag size="small" color="orange" style={{ marginLeft: 4 }}>
                  {t('globalTag')}
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
  const edges: Edge[] = s.agents.flatMap((a) =>
    linksOf(s, a).map((to) => ({ id: `${a.id}->${to.id}`, source: a.id, target: to.id, animated: true })),
  );
  const setLinks = (id: string, next: (ids: string[]) => string[]) => {
    const from = s.agents.find((a) => a.id === id);
    if (from) setAgent(id, { links: next(linksOf(s, from).map((a) => a.id)) });
  };
  const connect = (c: Connection) => {
    if (c.source && c.target && c.source !== c.target)
      setLinks(c.source, (ids) => (ids.includes(c.target) ? ids : [...ids, c.target]));
  };
  const unlink = (gone: Edge[]) => {
    let agents = s.agents;
    for (const e of gone)
      agents = agents.map((a) =>
        a.id === e.source
          ? {
              ...a,
              links: linksOf({ ...s, agents }, a)
                .map((x) => x.id)
                .filter((x) => x !== e.target),
            }
          : a,
      );
    set({ agents });
  };

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
          onConnect={connect}
          onEdgesDelete={unlink}
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
        <Select.Option value="current">{t('jumpCurrent')}</Select.Option>
      </Select>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('linesHelp')}
      </Typography.Text>
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
