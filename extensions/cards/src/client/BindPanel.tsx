// Where the card shows: the plugin APIs and workflows it is bound to, and binding it to another: which output
// field fills each of the card's variables, how many rows lists show, and whether the model's text shows beside it.
import { Button, InputNumber, List, Select, Space, Switch, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, toast, useApi } from '@tessera/sdk/client';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BindCard,
  BizType,
  CardTargets,
  UnbindCard,
  variablesOf,
  type CardBind,
  type CardDsl,
} from '../shared/index.ts';

export function BindPanel({
  cardId,
  spaceId,
  dsl,
  binds,
}: {
  cardId: string;
  spaceId: string;
  dsl: CardDsl;
  binds: (CardBind & { target_name: string })[];
}) {
  const { t } = useTranslation('cards');
  const api = useApi();
  const qc = useQueryClient();
  const targets = useQuery({
    queryKey: ['cards', 'targets', spaceId],
    queryFn: () => api.call(CardTargets, { space_id: spaceId }),
  });
  const [target, setTarget] = useState('');
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [rows, setRows] = useState(5);
  const [llmText, setLlmText] = useState(true);
  const [problem, setProblem] = useState('');
  const variables = useMemo(() => variablesOf(dsl), [dsl]);
  const chosen = targets.data?.targets.find((x) => `${x.biz_type}:${x.biz_id}` === target);
  const refresh = () => qc.invalidateQueries({ queryKey: ['cards', 'detail', cardId] });
  const bind = useMutation({
    mutationFn: () =>
      api.call(
        BindCard,
        {
          card_id: cardId,
          biz_type: chosen!.biz_type as 1 | 2,
          biz_id: chosen!.biz_id,
          plugin_id: chosen!.plugin_id,
          mapping_rule: Object.fromEntries(Object.entries(mapping).filter(([, v]) => v)),
          max_display_rows: rows,
          llm_text_card: llmText,
        },
        { handled: (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false) },
      ),
    onSuccess: () => {
      toast.success(t('bound'));
      setTarget('');
      setMapping({});
      void refresh();
    },
  });
  const unbind = useMutation({
    mutationFn: (b: CardBind) =>
      api.call(UnbindCard, { space_id: spaceId, biz_type: b.biz_type as 1 | 2, biz_id: b.biz_id }),
    onSuccess: () => void refresh(),
  });
  return (
    <div data-testid="card-binds">
      <Typography.Text bold>{t('bindings')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('bindHint')}
      </Typography.Paragraph>
      {binds.length > 0 && (
        <List
          size="small"
          dataSource={binds}
          render={(b) => (
            <List.Item
              key={`${b.biz_type}:${b.biz_id}`}
              data-testid="card-bind"
              actions={[
                <Button key="x" size="mini" status="danger" onClick={() => unbind.mutate(b)} data-testid="card-unbind">
                  {t('unbind')}
                </Button>,
              ]}
            >
              <Tag size="small">{b.biz_type === BizType.PluginApi ? t('pluginApi') : t('workflow')}</Tag>{' '}
              {b.target_name}
            </List.Item>
          )}
        />
      )}
      <Space direction="vertical" style={{ width: '100%', marginTop: 8 }}>
        <Select
          placeholder={t('bindTo')}
          value={target || undefined}
          onChange={(v: string) => (setTarget(v), setProblem(''))}
          loading={targets.isPending}
          showSearch
          data-testid="card-bind-target"
          notFoundContent={t('noTargets')}
        >
          {targets.data?.targets.map((x) => (
            <Select.Option key={`${x.biz_type}:${x.biz_id}`} value={`${x.biz_type}:${x.biz_id}`}>
              {x.biz_type === BizType.PluginApi ? '🔌 ' : '⚙ '}
              {x.name}
            </Select.Option>
          ))}
        </Select>
        {chosen && (
          <>
            {variables.map((v) => (
              <Space key={v} style={{ width: '100%' }}>
                <Typography.Text code style={{ minWidth: 90, display: 'inline-block' }}>
                  {v}
                </Typography.Text>
                <Select
                  size="small"
                  allowClear
                  allowCreate
                  placeholder={t('sameName')}
                  value={mapping[v] || undefined}
                  onChange={(p?: string) => setMapping((m) => ({ ...m, [v]: p ?? '' }))}
                  options={chosen.fields}
                  style={{ width: 180 }}
                  data-testid="card-bind-field"
                  data-variable={v}
                />
              </Space>
            ))}
            <Space>
              <Typography.Text>{t('rows')}</Typography.Text>
              <InputNumber
                size="small"
                min={1}
                max={50}
                value={rows}
                onChange={(v) => setRows(v ?? 5)}
                style={{ width: 80 }}
              />
            </Space>
            <Space>
              <Switch size="small" checked={llmText} onChange={setLlmText} data-testid="card-bind-llm-text" />
              <Typography.Text>{t('llmText')}</Typography.Text>
            </Space>
            {problem && <Typography.Text type="error">{problem}</Typography.Text>}
            <Button
              type="primary"
              size="small"
              onClick={() => bind.mutate()}
              loading={bind.isPending}
              data-testid="card-bind-save"
            >
              {t('bind')}
            </Button>
          </>
        )}
      </Space>
    </div>
  );
}
