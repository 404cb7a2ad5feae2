// Annotation jobs: a new one over a dataset version's items, or (without a dataset) over the space's recent traces (its
// labels, annotators and how many label each item); each job's progress, labelling for its annotators, its agreement
// with the items where they differ (decided by a review), and the agreed labels written back (into the draft, or as
// the traces' annotations).
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, InputNumber, Progress, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { toast } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DatasetView, LabelSpec, VersionView } from '../shared/api.ts';
import { useAnnotation, useUserId } from './store.ts';

type Agreement = Awaited<ReturnType<ReturnType<typeof useAnnotation>['agreement']>>;

/** The form of a new annotation task. */
interface AnnotationForm {
  name: string;
  versionID: string;
  hours: number;
  spanName: string;
  limit: number;
  key: string;
  type: 'choice' | 'span';
  field: string;
  options: string;
  annotators: string[];
  blind: number;
}

export function AnnotationPanel({
  spaceID,
  d,
  versions = [],
}: {
  spaceID: string;
  /** Without one, the jobs label the space's traces. */
  d?: DatasetView;
  versions?: VersionView[];
}) {
  const { t } = useTranslation('datasets');
  const me = useUserId();
  const a = useAnnotation(spaceID, d?.datasetID);
  const [form, setForm] = useState<AnnotationForm>({
    name: '',
    versionID: '',
    hours: 24,
    spanName: '',
    limit: 100,
    key: 'label',
    type: 'choice',
    field: '',
    options: 'good, bad',
    annotators: [],
    blind: 2,
  });
  const [agreement, setAgreement] = useState<{ jobID: string; r: Agreement } | null>(null);
  const set = (v: Partial<typeof form>) => setForm({ ...form, ...v });
  // A span label marks parts of a text: a text field of the dataset, or a trace's input or output.
  const texts = d ? d.fields.filter((f) => f.type === 'text').map((f) => f.name) : ['input', 'output'];
  const labels: LabelSpec[] = [
    {
      key: form.key,
      type: form.type,
      field: form.type === 'span' ? form.field || texts[0] || '' : '',
      options: form.options
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
      min: 1,
      max: 5,
    },
  ];
  const open = async (jobID: string) => setAgreement({ jobID, r: await a.agreement(jobID) });
  return (
    <div data-testid="annotation">
      <Space direction="vertical" style={{ maxWidth: 640, width: '100%' }}>
        <Space wrap>
          <Input
            value={form.name}
            onChange={(name) => set({ name })}
            placeholder={t('ann.name')}
            style={{ width: 200 }}
            data-testid="ann-name"
          />
          {d ? (
            <Select
              value={form.versionID || undefined}
              onChange={(versionID: string) => set({ versionID })}
              placeholder={t('ann.version')}
              style={{ width: 140 }}
              data-testid="ann-version"
            >
              {versions.map((v) => (
                <Select.Option key={v.versionID} value={v.versionID}>
                  v{v.version}
                </Select.Option>
              ))}
            </Select>
          ) : (
            <>
              <Select value={form.hours} onChange={(hours: number) => set({ hours })} style={{ width: 140 }}>
                {[1, 24, 168, 720].map((h) => (
                  <Select.Option key={h} value={h}>
                    {t(`traces.range.${h}`)}
                  </Select.Option>
                ))}
              </Select>
              <Input
                value={form.spanName}
                onChange={(spanName) => set({ spanName })}
                placeholder={t('traces.name')}
                style={{ width: 200 }}
                data-testid="ann-span-name"
              />
              <InputNumber
                min={1}
                max={1000}
                value={form.limit}
                onChange={(v) => set({ limit: Number(v) || 100 })}
                prefix={t('ann.traces.limit')}
                style={{ width: 150 }}
              />
            </>
          )}
        </Space>
        <Space wrap>
          <Select
            value={form.type}
            onChange={(type: 'choice' | 'span') =>
              set({
                type,
                options: type === 'span' ? 'PERSON, PLACE' : 'good, bad',
                key: type === 'span' ? 'entities' : 'label',
              })
            }
            style={{ width: 160 }}
            data-testid="ann-type"
          >
            <Select.Option value="choice">{t('ann.type.choice')}</Select.Option>
            <Select.Option value="span">{t('ann.type.span')}</Select.Option>
          </Select>
          {form.type === 'span' && (
            <Select
              value={form.field || texts[0]}
              onChange={(field: string) => set({ field })}
              style={{ width: 160 }}
              data-testid="ann-field"
            >
              {texts.map((f) => (
                <Select.Option key={f} value={f}>
                  {f}
                </Select.Option>
              ))}
            </Select>
          )}
          <Input
            value={form.key}
            onChange={(key) => set({ key })}
            addBefore={t('ann.key')}
            style={{ width: 200 }}
            data-testid="ann-key"
          />
          <Input
            value={form.options}
            onChange={(options) => set({ options })}
            addBefore={t('ann.options')}
            style={{ width: 300 }}
            data-testid="ann-options"
          />
        </Space>
        <Space wrap>
          <Select
            mode="multiple"
            value={form.annotators}
            onChange={(annotators: string[]) => set({ annotators })}
            placeholder={t('ann.annotators')}
            style={{ width: 360 }}
            data-testid="ann-annotators"
          >
            {(a.members.data ?? []).map((m) => (
              <Select.Option key={m.user_id} value={m.user_id}>
                {m.name || m.email}
              </Select.Option>
            ))}
          </Select>
          <InputNumber
            min={1}
            max={10}
            value={form.blind}
            onChange={(v) => set({ blind: Number(v) || 1 })}
            prefix={t('ann.blind')}
            style={{ width: 170 }}
            data-testid="ann-blind"
          />
          <Button
            type="primary"
            loading={a.create.isPending}
            disabled={!form.name.trim() || (!!d && !form.versionID) || !form.annotators.length}
            onClick={() =>
              a.create.mutate({
                name: form.name,
                versionID: form.versionID,
                labels,
                annotators: form.annotators,
                blind: form.blind,
                range: { hours: form.hours, name: form.spanName, limit: form.limit },
              })
            }
            data-testid="ann-create"
          >
            {t('ann.create')}
          </Button>
        </Space>
        {a.create.error && <Alert type="error" content={messageOf(a.create.error)} />}
      </Space>
      {(a.jobs.data ?? []).map((j) => (
        <div
          key={j.jobID}
          style={{ marginTop: 12, padding: 8, border: '1px solid var(--color-border-2)', borderRadius: 6 }}
          data-testid="ann-job"
        >
          <Space wrap>
            <Typography.Text bold>{j.name}</Typography.Text>
            <Tag>{t(`ann.status.${j.status}`)}</Tag>
            <span>{t('ann.progress', { done: j.doneItems, total: j.itemCount, labels: j.labelCount })}</span>
            {j.annotatorIDs.includes(me) && j.status === 'running' && (
              <Link to={`/datasets/${d?.datasetID ?? 'trace-annotation'}/label/${j.jobID}`} data-testid="ann-label">
                {t('ann.label')}
              </Link>
            )}
            {j.createdBy === me && (
              <>
                <Button size="mini" onClick={() => void open(j.jobID)} data-testid="ann-agreement">
                  {t('ann.agreement')}
                </Button>
                <Button
                  size="mini"
                  loading={a.writeBack.isPending}
                  onClick={() =>
                    a.writeBack.mutate(j.jobID, {
                      onSuccess: (r) => toast.success(t('ann.written', { written: r.written, undecided: r.undecided })),
                    })
                  }
                  data-testid="ann-write"
                >
                  {t('ann.writeBack')}
                </Button>
              </>
            )}
          </Space>
          <Progress percent={j.itemCount ? Math.round((j.doneItems / j.itemCount) * 100) : 0} size="small" />
          {agreement?.jobID === j.jobID && (
            <div data-testid="ann-agreement-result">
              {agreement.r.labels.map((l) => (
                <div key={l.key}>
                  {t('ann.kappa', {
                    key: l.key,
                    items: l.items,
                    fleiss: l.fleiss === null ? '—' : l.fleiss.toFixed(3),
                    cohen: l.cohen === null ? '—' : l.cohen.toFixed(3),
                    unanimous: Math.round(l.unanimous * 100),
                  })}
                </div>
              ))}
              {agreement.r.disagreements.map((x) => (
                <div key={x.itemID} style={{ fontSize: 12, marginTop: 4 }} data-testid="ann-disagreement">
                  <code>{JSON.stringify(x.data).slice(0, 120)}</code> ·{' '}
                  {x.labels.map((l) => JSON.stringify(l.values)).join(' / ')}
                  <Space size={4} style={{ marginLeft: 6 }}>
                    {j.labels[0]?.options.map((o) => (
                      <Button
                        key={o}
                        size="mini"
                        type={x.review?.[j.labels[0].key] === o ? 'primary' : 'secondary'}
                        onClick={async () => {
                          await a.review(j.jobID, x.itemID, { [j.labels[0].key]: o });
                          await open(j.jobID);
                        }}
                      >
                        {o}
                      </Button>
                    ))}
                  </Space>
                </div>
              ))}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
