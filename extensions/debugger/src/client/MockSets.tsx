// The mock sets of an API (in the plugin editor's debug panel) or of a workflow (its editor's Mock data panel): made,
// deleted; each set's rules (which calls they answer: every call, or calls whose input holds given values; the
// response; the priority) written by hand or by a chat model. Where a set is used is chosen in the bot's debug chat
// and the workflow editor.
import {
  Alert,
  Button,
  Collapse,
  Input,
  InputNumber,
  Popconfirm,
  Progress,
  Radio,
  Space,
  Tag,
  Typography,
} from '@arco-design/web-react';
import type { ApiDebugSectionProps } from '@tessera/ext-plugins/shared';
import { ListRow } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  toolSubject,
  useGenerate,
  useMockRules,
  useMockSets,
  type ComponentSubject,
  type MockRuleView,
  type MockSetView,
} from './store.ts';

export function MockSetsSection({ spaceId, pluginId, apiId }: ApiDebugSectionProps) {
  return <MockSets spaceId={spaceId} subject={toolSubject(pluginId, apiId)} />;
}

export function MockSets({ spaceId, subject }: { spaceId: string; subject: ComponentSubject }) {
  const { t } = useTranslation('debugger');
  const sets = useMockSets(spaceId, subject);
  const workflow = subject.componentType === 10002;
  const [name, setName] = useState('');
  const list = sets.list.data ?? [];
  return (
    <div
      data-testid="mock-sets"
      style={{ marginTop: 20, borderTop: '1px solid var(--color-border-2)', paddingTop: 12 }}
    >
      <Typography.Title heading={6} style={{ margin: '0 0 4px' }}>
        {t('sets.title')}
      </Typography.Title>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t(workflow ? 'sets.introWorkflow' : 'sets.intro')}
      </Typography.Text>
      <div style={{ display: 'flex', gap: 8, margin: '8px 0' }}>
        <Input
          value={name}
          onChange={setName}
          placeholder={t('sets.name')}
          maxLength={50}
          data-testid="mock-set-name"
        />
        <Button
          type="primary"
          disabled={!name.trim()}
          loading={sets.save.isPending}
          onClick={() => sets.save.mutate({ name }, { onSuccess: () => setName('') })}
          data-testid="mock-set-create"
        >
          {t('sets.create')}
        </Button>
      </div>
      <Collapse bordered={false} accordion>
        {list.map((s) => (
          <Collapse.Item
            key={s.id}
            name={s.id}
            data-testid="mock-set"
            header={
              <span style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
                <strong>{s.name}</strong>
                <Tag size="small">{t('sets.rules', { count: s.mockRuleQuantity })}</Tag>
                {s.schemaIncompatible && (
                  <Tag size="small" color="orange">
                    {t('sets.incompatible')}
                  </Tag>
                )}
              </span>
            }
            extra={
              <Popconfirm title={t('deleteConfirm')} onOk={() => sets.remove.mutate(s.id)}>
                <Button size="mini" status="danger" onClick={(e: { stopPropagation(): void }) => e.stopPropagation()}>
                  {t('delete')}
                </Button>
              </Popconfirm>
            }
          >
            <Rules set={s} />
          </Collapse.Item>
        ))}
      </Collapse>
    </div>
  );
}

const blank = { name: '', priority: 0, match: false, filter: '', response: '' };

function Rules({ set }: { set: MockSetView }) {
  const { t } = useTranslation('debugger');
  const r = useMockRules(set.id);
  const [draft, setDraft] = useState<typeof blank & { id?: string }>(blank);
  const edit = (x: MockRuleView) =>
    setDraft({
      id: x.id,
      name: x.name,
      priority: x.priority,
      match: x.requestFilter.requestFilterType === 2,
      filter: x.requestFilter.requestFilterRule,
      response: x.responseExpect.responseExpectRule,
    });
  return (
    <div data-testid="mock-rules">
      {(r.list.data ?? []).map((x) => (
        <ListRow key={x.id} testId="mock-rule">
          <Tag size="small">{x.priority}</Tag>
          <strong>{x.name}</strong>
          <span
            style={{
              flex: 1,
              fontSize: 12,
              color: 'var(--color-text-3)',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {x.requestFilter.requestFilterType === 2
              ? t('rules.when', { filter: x.requestFilter.requestFilterRule })
              : t('rules.always')}
          </span>
          <Button size="mini" onClick={() => edit(x)}>
            {t('edit')}
          </Button>
          <Popconfirm title={t('deleteConfirm')} onOk={() => r.remove.mutate(x.id)}>
            <Button size="mini" status="danger">
              {t('delete')}
            </Button>
          </Popconfirm>
        </ListRow>
      ))}
      <Space direction="vertical" style={{ width: '100%', marginTop: 8 }}>
        <Space wrap>
          <Input
            value={draft.name}
            onChange={(name) => setDraft({ ...draft, name })}
            placeholder={t('rules.name')}
            maxLength={50}
            style={{ width: 200 }}
            data-testid="mock-rule-name"
          />
          <span>{t('rules.priority')}</span>
          <InputNumber
            value={draft.priority}
            min={0}
            max={10_000}
            onChange={(v) => setDraft({ ...draft, priority: Number(v) || 0 })}
            style={{ width: 90 }}
          />
        </Space>
        <Radio.Group type="button" size="small" value={draft.match} onChange={(match) => setDraft({ ...draft, match })}>
          <Radio value={false}>{t('rules.always')}</Radio>
          <Radio value={true}>{t('rules.match')}</Radio>
        </Radio.Group>
        {draft.match && (
          <Input.TextArea
            value={draft.filter}
            onChange={(filter) => setDraft({ ...draft, filter })}
            placeholder='{"petId": 2}'
            autoSize={{ minRows: 1, maxRows: 5 }}
            style={{ fontFamily: 'monospace' }}
            data-testid="mock-rule-filter"
          />
        )}
        <Input.TextArea
          value={draft.response}
          onChange={(response) => setDraft({ ...draft, response })}
          placeholder={t('rules.response')}
          autoSize={{ minRows: 3, maxRows: 12 }}
          style={{ fontFamily: 'monospace' }}
          data-testid="mock-rule-response"
        />
        <Space>
          <Button
            type="primary"
            size="small"
            disabled={!draft.name.trim() || !draft.response.trim()}
            loading={r.save.isPending}
            onClick={() =>
              r.save.mutate(
                {
                  id: draft.id,
                  name: draft.name,
                  priority: draft.priority,
                  requestFilter: draft.match
                    ? { requestFilterType: 2, requestFilterRule: draft.filter }
                    : { requestFilterType: 1, requestFilterRule: '' },
                  responseExpect: { responseExpectType: 1, responseExpectRule: draft.response },
                },
                { onSuccess: () => setDraft(blank) },
              )
            }
            data-testid="mock-rule-save"
          >
            {draft.id ? t('save') : t('rules.add')}
          </Button>
          {draft.id && (
            <Button size="small" onClick={() => setDraft(blank)}>
              {t('cancel')}
            </Button>
          )}
        </Space>
      </Space>
      <Generate setId={set.id} />
    </div>
  );
}

function Generate({ setId }: { setId: string }) {
  const { t } = useTranslation('debugger');
  const g = useGenerate(setId);
  const [quantity, setQuantity] = useState(3);
  const [desc, setDesc] = useState('');
  const status = g.task.data?.status;
  const running = g.start.isPending || status === 1;
  return (
    <div style={{ marginTop: 12 }} data-testid="mock-generate">
      <Space wrap>
        <span>{t('gen.title')}</span>
        <InputNumber
          value={quantity}
          min={1}
          max={10}
          onChange={(v) => setQuantity(Number(v) || 1)}
          style={{ width: 80 }}
        />
        <Input value={desc} onChange={setDesc} placeholder={t('gen.desc')} maxLength={2000} style={{ width: 240 }} />
        <Button loading={running} onClick={() => g.start.mutate({ quantity, desc })} data-testid="mock-generate-start">
          {t('gen.start')}
        </Button>
      </Space>
      {running && <Progress percent={50} status="normal" animation showText={false} style={{ marginTop: 6 }} />}
      {status === 2 && (
        <Alert
          type="success"
          style={{ marginTop: 6 }}
          content={t('gen.done', { count: g.task.data?.choices.length ?? 0 })}
        />
      )}
      {status === 3 && <Alert type="error" style={{ marginTop: 6 }} content={g.task.data?.error} />}
    </div>
  );
}
