// The focused labelling page of an annotation job: one item at a time, its fields, the job's labels (a choice by a
// click or its number key, a score, a text), Enter to submit; the next item follows until the caller's work is done.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, InputNumber, Space, Typography } from '@arco-design/web-react';
import { PageHeader } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { SpanMarker } from './SpanMarker.tsx';
import { useAnnotationJob, useLabelling } from './store.ts';

const cell = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 2);

export function LabelPage() {
  const { jobId = '' } = useParams();
  const { t } = useTranslation('datasets');
  const job = useAnnotationJob(jobId).data;
  const l = useLabelling(jobId);
  const [values, setValues] = useState<Record<string, string | number>>({});
  const item = l.next.data?.item;
  const labels = job?.labels ?? [];
  // A span label may be left with nothing marked.
  const given = { ...Object.fromEntries(labels.filter((x) => x.type === 'span').map((x) => [x.key, '[]'])), ...values };
  const ready = labels.length > 0 && labels.every((x) => given[x.key] !== undefined && given[x.key] !== '');
  const submit = () => {
    if (!item || !ready || l.submit.isPending) return;
    l.submit.mutate({ itemID: item.itemID, values: given }, { onSuccess: () => setValues({}) });
  };
  // Keys: 1-9 pick the first choice label's options; Enter submits (not while typing in a field).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof Element && e.target.closest('input, textarea')) return;
      const choice = labels.find((x) => x.type === 'choice');
      const n = Number(e.key);
      if (choice && n >= 1 && n <= choice.options.length)
        setValues((v) => ({ ...v, [choice.key]: choice.options[n - 1] }));
      if (e.key === 'Enter') submit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  return (
    <div className="tessera-page" data-testid="label-page">
      <PageHeader
        back={
          job?.sourceType === 'traces'
            ? { to: '/datasets/trace-annotation', label: t('ann.traces.title') }
            : { to: `/datasets/${job?.datasetID ?? ''}`, label: t('title') }
        }
        title={job?.name ?? t('label.title')}
      />
      <Typography.Paragraph type="secondary" data-testid="label-progress">
        {t('label.progress', { mine: l.next.data?.mine ?? 0, remaining: l.next.data?.remaining ?? 0 })}
      </Typography.Paragraph>
      {l.next.data && !item && <Alert type="success" content={t('label.done')} data-testid="label-done" />}
      {item && (
        <div style={{ maxWidth: 760 }} data-testid="label-item">
          {Object.entries(item.data).map(([k, v]) => (
            <div key={k} style={{ marginBottom: 8 }}>
              <Typography.Text type="secondary">{k}</Typography.Text>
              <pre style={{ whiteSpace: 'pre-wrap', margin: 0, fontFamily: 'inherit', fontSize: 15 }}>{cell(v)}</pre>
            </div>
          ))}
          {labels.map((x) => (
            <div key={x.key} style={{ marginTop: 12 }}>
              <Typography.Text bold>{x.key}</Typography.Text>
              <div style={{ marginTop: 4 }}>
                {x.type === 'choice' ? (
                  <Space wrap>
                    {x.options.map((o, i) => (
                      <Button
                        key={o}
                        type={values[x.key] === o ? 'primary' : 'secondary'}
                        onClick={() => setValues({ ...values, [x.key]: o })}
                        data-testid={`label-option-${o}`}
                      >
                        {i + 1}. {o}
                      </Button>
                    ))}
                  </Space>
                ) : x.type === 'span' ? (
                  <SpanMarker
                    text={textOf(item.data[x.field])}
                    options={x.options}
                    value={values[x.key] as string | undefined}
                    onChange={(v) => setValues({ ...values, [x.key]: v })}
                  />
                ) : x.type === 'score' ? (
                  <InputNumber
                    min={x.min}
                    max={x.max}
                    value={values[x.key] as number | undefined}
                    onChange={(v) => setValues({ ...values, [x.key]: Number(v) })}
                  />
                ) : (
                  <Input.TextArea
                    value={String(values[x.key] ?? '')}
                    onChange={(v) => setValues({ ...values, [x.key]: v })}
                  />
                )}
              </div>
            </div>
          ))}
          <Button
            type="primary"
            style={{ marginTop: 16 }}
            disabled={!ready}
            loading={l.submit.isPending}
            onClick={submit}
            data-testid="label-submit"
          >
            {t('label.submit')}
          </Button>
          <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
            {t('label.keys')}
          </Typography.Text>
          {l.submit.error && <Alert type="error" content={messageOf(l.submit.error)} />}
        </div>
      )}
    </div>
  );
}

/** A field's text, or nothing when it holds something else. */
function textOf(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
