// The tools a task may use: the space's MCP tools, plugin APIs, workflows and knowledge bases, chosen with the bots'
// own skill panels (their extensions draw them; a kind whose extension is off is not offered), and the code sandbox.
import { Switch, Tag, Typography } from '@arco-design/web-react';
import { BotSkillPanels } from '@tessera/ext-bots/shared';
import { useRegistryEntries } from '@tessera/sdk/client';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The skills that make sense outside a bot (the others keep per-user state of a bot's). */
export const TASK_TOOL_KINDS = ['mcp', 'plugins', 'workflows', 'knowledge'];

export function ToolPicker({
  spaceId,
  tools,
  code,
  onChange,
}: {
  spaceId: string;
  tools: Record<string, unknown>;
  code: boolean;
  onChange(next: { tools?: Record<string, unknown>; code?: boolean }): void;
}) {
  const { t } = useTranslation('agent-workspace');
  const entries = useRegistryEntries(BotSkillPanels);
  const panels = useMemo(
    () =>
      entries
        .filter((e) => TASK_TOOL_KINDS.includes(e.value.key))
        .map((e) => ({ ...e.value, ns: e.owner }))
        .sort((a, b) => (a.order ?? 100) - (b.order ?? 100)),
    [entries],
  );
  return (
    <div data-testid="agent-tools" style={{ display: 'flex', flexDirection: 'column', gap: 14 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <Typography.Text bold style={{ flex: 1 }}>
          {t('tools.code')}
        </Typography.Text>
        <Switch size="small" checked={code} onChange={(v) => onChange({ code: v })} data-testid="agent-tool-code" />
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12, marginTop: -10 }}>
        {t('tools.codeHelp')}
      </Typography.Text>
      {panels.map((p) => {
        const on = tools[p.key] !== undefined;
        return (
          <div key={p.key} data-testid={`agent-tool-${p.key}`}>
            <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
              <Typography.Text bold style={{ flex: 1 }}>
                {t(p.label, { ns: p.ns })}
                {on && p.count ? (
                  <Tag size="small" style={{ marginLeft: 6 }}>
                    {p.count(tools[p.key])}
                  </Tag>
                ) : null}
              </Typography.Text>
              <Switch
                size="small"
                checked={on}
                aria-label={t(p.label, { ns: p.ns })}
                onChange={(v) => {
                  const next = { ...tools };
                  if (v) next[p.key] = p.empty();
                  else delete next[p.key];
                  onChange({ tools: next });
                }}
                data-testid={`agent-tool-toggle-${p.key}`}
              />
            </div>
            {p.description && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(p.description, { ns: p.ns })}
              </Typography.Text>
            )}
            {on && (
              <p.Panel
                value={tools[p.key]}
                onChange={(v: unknown) => onChange({ tools: { ...tools, [p.key]: v } })}
                spaceId={spaceId}
                botId=""
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
