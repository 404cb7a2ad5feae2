// A new observation task: name, evaluators, which spans (root, model calls, all) and filters, the sample rate and
// size, when it ends; a preview counts what the rule would have taken of the last day's spans.
import { Button, Checkbox, Input, InputNumber, Select, Slider, Space, DatePicker, Alert } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { Modal, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QUERY_TYPES, SPAN_FIELDS, type FilterField } from '../shared/api.ts';
import { useSpaceId, useTasks } from './store.ts';

const LABEL = { fontWeight: 500, marginBottom: 4 };
type ListType = 'root_span' | 'llm_span' | 'all_span';

export function TaskForm({ open, onClose }: { open: boolean; onClose(id?: string): void }) {
  const { t } = useTranslation('online-eval');
  const spaceId = useSpaceId();
  const tasks = useTasks(spaceId);
  const [name, setName] = useState('');
  const [evaluators, setEvaluators] = useState<string[]>([]);
  const [listType, setListType] = useState<ListType>('root_span');
  const [filters, setFilters] = useState<FilterField[]>([]);
  const [rate, setRate] = useState(10);
  const [size, setSize] = useState(0);
  const [endAt, setEndAt] = useState<number | undefined>();
  const setFilter = (i: number, f: Partial<FilterField>) =>
    setFilters(filters.map((x, j) => (j === i ? { ...x, ...f } : x)));
  const rule = () => ({
    span_filters: { span_list_type: listType, filters: { filter_fields: filters.filter((f) => f.field_name) } },
    sampler: { sample_rate: rate / 100, sample_size: size },
  });
  const preview = tasks.preview.data;
  const evs = tasks.evaluators.data ?? [];
  return (
    <Modal
      size="large"
      visible={open}
      title={t('new')}
      onCancel={() => onClose()}
      okText={t('create')}
      okButtonProps={{ disabled: !name.trim() || !evaluators.length, ...testId('online-eval-create') }}
      confirmLoading={tasks.create.isPending}
      onOk={() =>
        tasks.create.mutate(
          {
            name,
            workspace_id: spaceId,
            rule: { ...rule(), effective_time: endAt ? { end_at: endAt } : {} },
            task_config: { auto_evaluate_configs: evaluators.map((evaluator_id) => ({ evaluator_id })) },
          },
          { onSuccess: (r) => onClose(r.task_id) },
        )
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size={12}>
        <Input value={name} onChange={setName} placeholder={t('name')} maxLength={100} data-testid="online-eval-name" />
        <div>
          <div style={LABEL}>{t('evaluators')}</div>
          {!evs.length && !tasks.evaluators.isLoading && <Alert type="info" content={t('noEvaluators')} />}
          <div data-testid="online-eval-evaluators">
            <Checkbox.Group value={evaluators} onChange={setEvaluators}>
              {evs.map((e) => (
                <Checkbox key={e.evaluator_id} value={e.evaluator_id}>
                  {e.name} <span style={{ color: 'var(--color-text-3)' }}>v{e.latest_version}</span>
                </Checkbox>
              ))}
            </Checkbox.Group>
          </div>
        </div>
        <div>
          <div style={LABEL}>{t('spans')}</div>
          <Select value={listType} onChange={setListType} style={{ width: 240 }} data-testid="online-eval-list-type">
            {(['root_span', 'llm_span', 'all_span'] as const).map((x) => (
              <Select.Option key={x} value={x}>
                {t(`listType.${x}`)}
              </Select.Option>
            ))}
          </Select>
        </div>
        <div>
          <div style={LABEL}>{t('filters')}</div>
          {filters.map((f, i) => (
            <Space key={i} style={{ marginBottom: 6 }}>
              <Select
                value={f.field_name}
                onChange={(v: string) => setFilter(i, { field_name: v })}
                allowCreate
                showSearch
                style={{ width: 180 }}
                placeholder={t('field')}
                data-testid={`online-eval-filter-field-${i}`}
              >
                {SPAN_FIELDS.map((x) => (
                  <Select.Option key={x} value={x}>
                    {t(`field.${x}`)}
                  </Select.Option>
                ))}
              </Select>
              <Select
                value={f.query_type}
                onChange={(v: FilterField['query_type']) => setFilter(i, { query_type: v })}
                style={{ width: 130 }}
              >
                {QUERY_TYPES.map((x) => (
                  <Select.Option key={x} value={x}>
                    {t(`query.${x}`)}
                  </Select.Option>
                ))}
              </Select>
              {f.query_type !== 'exist' && (
                <Input
                  value={f.values.join(',')}
                  onChange={(v) => setFilter(i, { values: v.split(',').map((s) => s.trim()) })}
                  placeholder={t('value')}
                  style={{ width: 200 }}
                  data-testid={`online-eval-filter-value-${i}`}
                />
              )}
              <Button
                icon={<IconDelete />}
                aria-label={t('remove')}
                onClick={() => setFilters(filters.filter((_, j) => j !== i))}
              />
            </Space>
          ))}
          <Button
            icon={<IconPlus />}
            size="small"
            onClick={() => setFilters([...filters, { field_name: 'span_name', query_type: 'match', values: [] }])}
            data-testid="online-eval-filter-add"
          >
            {t('addFilter')}
          </Button>
        </div>
        <div>
          <div style={LABEL}>{t('sampleRate', { rate })}</div>
          <Space>
            <Slider
              value={rate}
              min={1}
              max={100}
              onChange={(v) => typeof v === 'number' && setRate(v)}
              style={{ width: 320 }}
            />
            <InputNumber
              value={rate}
              min={1}
              max={100}
              suffix="%"
              onChange={(v) => setRate(v ?? 10)}
              style={{ width: 110 }}
              data-testid="online-eval-rate"
            />
          </Space>
        </div>
        <Space wrap>
          <span>{t('sampleSize')}</span>
          <InputNumber value={size} min={0} onChange={(v) => setSize(v ?? 0)} style={{ width: 140 }} />
          <span>{t('endAt')}</span>
          <DatePicker showTime onChange={(_s, d) => setEndAt(d ? d.valueOf() : undefined)} />
        </Space>
        <Space>
          <Button
            loading={tasks.preview.isPending}
            onClick={() => tasks.preview.mutate(rule())}
            data-testid="online-eval-preview"
          >
            {t('preview')}
          </Button>
          {preview && (
            <span data-testid="online-eval-preview-result">
              {t('previewResult', { scanned: preview.scanned, matched: preview.matched, sampled: preview.sampled })}
            </span>
          )}
        </Space>
      </Space>
    </Modal>
  );
}
