// The bot's variables: name, default and description; the values the debug chat has for you, and a reset.
import { Button, Checkbox, Input, Space, Tooltip, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import type { BotSkillPanelProps } from '@tessera/ext-bots/client';
import { useTranslation } from 'react-i18next';
import { VariableName, VariablesSkillSettings } from '../shared.ts';

type Variable = VariablesSkillSettings['variables'][number];

export function VariablesPanel({ value, onChange, spaceId, botId }: BotSkillPanelProps) {
  const { t } = useTranslation('bot-skill-variables');
  const api = useApi();
  const qc = useQueryClient();
  // Shown as typed: a name being written may not be valid yet (publishing says so).
  const list: Variable[] = (value?.variables ?? []).map((v: Partial<Variable>) => ({
    name: v.name ?? '',
    description: v.description ?? '',
    default_value: v.default_value ?? '',
    writable: v.writable ?? true,
    user_editable: v.user_editable ?? true,
  }));
  const set = (i: number, patch: Partial<Variable>) =>
    onChange({ variables: list.map((v, j) => (j === i ? { ...v, ...patch } : v)) });
  const memories = useQuery({
    queryKey: ['bot-variables', botId],
    queryFn: () =>
      api.post<{ memories: { keyword: string; value: string; create_time: number }[] }>('/api/memory/variable/get', {
        space_id: spaceId,
        bot_id: botId,
      }),
  });
  // The values the debug chat has set for you (a default is not one).
  const values = Object.fromEntries(
    (memories.data?.memories ?? []).filter((m) => m.create_time > 0).map((m) => [m.keyword, m.value]),
  );
  const reset = useMutation({
    mutationFn: () => api.post('/api/memory/variable/delete', { space_id: spaceId, bot_id: botId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['bot-variables', botId] }),
  });
  const names = list.map((v) => v.name);
  return (
    <div data-testid="bot-variables">
      <Space direction="vertical" style={{ width: '100%' }} size={6}>
        {list.map((v, i) => {
          const bad = !VariableName.safeParse(v.name).success || names.indexOf(v.name) !== i;
          return (
            <div
              key={i}
              style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }}
              data-testid="bot-variable"
            >
              <Input
                size="small"
                value={v.name}
                placeholder={t('name')}
                status={bad ? 'error' : undefined}
                onChange={(name) => set(i, { name })}
                style={{ width: 120 }}
                data-testid="bot-variable-name"
              />
              <Input
                size="small"
                value={v.default_value}
                placeholder={t('default')}
                onChange={(default_value) => set(i, { default_value })}
                style={{ width: 110 }}
              />
              <Input
                size="small"
                value={v.description}
                placeholder={t('description')}
                onChange={(description) => set(i, { description })}
                style={{ flex: 1, minWidth: 120 }}
              />
              {/* Each choice says what it is where it is (a short label; the whole sentence on hover). */}
              <Tooltip content={t('writable')}>
                <Checkbox
                  checked={v.writable}
                  onChange={(writable) => set(i, { writable })}
                  data-testid="bot-variable-writable"
                >
                  {t('writableShort')}
                </Checkbox>
              </Tooltip>
              <Tooltip content={t('userEditable')}>
                <Checkbox
                  checked={v.user_editable}
                  onChange={(user_editable) => set(i, { user_editable })}
                  data-testid="bot-variable-user-editable"
                >
                  {t('userEditableShort')}
                </Checkbox>
              </Tooltip>
              <Button
                size="mini"
                type="text"
                icon={<IconDelete />}
                aria-label={t('remove')}
                onClick={() => onChange({ variables: list.filter((_, j) => j !== i) })}
              />
              {v.name && values[v.name] !== undefined && (
                <Typography.Text
                  type="secondary"
                  style={{ fontSize: 12, width: '100%' }}
                  data-testid="bot-variable-value"
                >
                  {t('current', { value: values[v.name] })}
                </Typography.Text>
              )}
            </div>
          );
        })}
        <Space>
          <Button
            size="mini"
            icon={<IconPlus />}
            onClick={() =>
              onChange({
                variables: [
                  ...list,
                  { name: '', description: '', default_value: '', writable: true, user_editable: true },
                ],
              })
            }
            disabled={list.length >= 50}
            data-testid="bot-variable-add"
          >
            {t('add')}
          </Button>
          <Button
            size="mini"
            type="text"
            onClick={() => reset.mutate()}
            loading={reset.isPending}
            disabled={!Object.keys(values).length}
          >
            {t('reset')}
          </Button>
        </Space>
      </Space>
    </div>
  );
}
