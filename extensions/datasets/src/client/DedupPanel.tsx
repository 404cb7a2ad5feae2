// Duplicates of a dataset's draft: a text field compared exactly or near (a similarity threshold), the job's progress,
// the pairs found side by side with the later item of each checked, and the checked ones removed.
import {
  Alert,
  Button,
  Checkbox,
  InputNumber,
  Progress,
  Radio,
  Select,
  Space,
  Table,
  Typography,
} from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatasetView, DedupJobView } from '../shared/api.ts';
import { useDedup } from './store.ts';

export function DedupPanel({ d }: { d: DatasetView }) {
  const { t } = useTranslation('datasets');
  const texts = d.fields.filter((f) => f.type === 'text');
  const [field, setField] = useState(texts[0]?.name ?? '');
  const [method, setMethod] = useState<'minhash' | 'exact'>('minhash');
  const [threshold, setThreshold] = useState(0.8);
  const [jobID, setJobID] = useState('');
  const [checked, setChecked] = useState<Set<string> | null>(null);
  const dedup = useDedup(d.datasetID, jobID, (id) => (setJobID(id), setChecked(null)));
  const j: DedupJobView | undefined = dedup.job.data;
  const picked = checked ?? new Set(j?.status === 'done' ? j.pairs.map((p) => p.itemB) : []);
  return (
    <div data-testid="dedup">
      <Space wrap>
        <Select
          value={field}
          onChange={setField}
          style={{ width: 180 }}
          placeholder={t('pickField')}
          data-testid="dedup-field"
        >
          {texts.map((f) => (
            <Select.Option key={f.name} value={f.name}>
              {f.name}
            </Select.Option>
          ))}
        </Select>
        <Radio.Group type="button" value={method} onChange={setMethod}>
          <Radio value="minhash">{t('dedup.near')}</Radio>
          <Radio value="exact">{t('dedup.exact')}</Radio>
        </Radio.Group>
        {method === 'minhash' && (
          <InputNumber
            min={0.3}
            max={1}
            step={0.05}
            precision={2}
            value={threshold}
            onChange={(v) => setThreshold(Number(v) || 0.8)}
            prefix={t('dedup.threshold')}
            style={{ width: 180 }}
          />
        )}
        <Button
          type="primary"
          disabled={!field}
          loading={dedup.start.isPending}
          onClick={() => dedup.start.mutate({ field, method, threshold })}
          data-testid="dedup-start"
        >
          {t('dedup.start')}
        </Button>
      </Space>
      {j && (
        <div style={{ marginTop: 12 }} data-testid="dedup-job">
          <Space>
            <Typography.Text>{t(`status.${j.status}`)}</Typography.Text>
            {(j.status === 'queued' || j.status === 'running') && (
              <Button size="mini" onClick={() => void dedup.cancel()}>
                {t('cancel')}
              </Button>
            )}
          </Space>
          <Progress percent={j.progress} />
          {j.message && <Alert type="error" content={j.message} />}
          {j.status === 'done' && (
            <>
              <Typography.Paragraph data-testid="dedup-count">
                {t('dedup.pairs', { count: j.pairCount })}
              </Typography.Paragraph>
              <Table
                size="small"
                rowKey={(p: DedupJobView['pairs'][number]) => `${p.itemA}-${p.itemB}`}
                pagination={{ pageSize: 20 }}
                data={j.pairs}
                columns={[
                  {
                    title: t('dedup.similarity'),
                    render: (_: unknown, p: DedupJobView['pairs'][number]) => p.similarity.toFixed(3),
                    width: 100,
                  },
                  { title: t('dedup.kept'), render: (_: unknown, p: DedupJobView['pairs'][number]) => p.textA },
                  {
                    title: t('dedup.remove'),
                    render: (_: unknown, p: DedupJobView['pairs'][number]) => (
                      <Checkbox
                        checked={picked.has(p.itemB)}
                        onChange={(on) => {
                          const next = new Set(picked);
                          if (on) next.add(p.itemB);
                          else next.delete(p.itemB);
                          setChecked(next);
                        }}
                      >
                        {p.textB}
                      </Checkbox>
                    ),
                  },
                ]}
              />
              <Button
                status="danger"
                disabled={!picked.size}
                loading={dedup.confirm.isPending}
                onClick={() => dedup.confirm.mutate([...picked])}
                data-testid="dedup-confirm"
              >
                {t('dedup.confirm', { count: picked.size })}
              </Button>
              {dedup.confirm.data && (
                <Alert type="success" content={t('dedup.removed', { count: dedup.confirm.data.removed })} />
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
