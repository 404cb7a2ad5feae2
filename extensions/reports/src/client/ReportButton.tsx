// "Report" on a product page (the marketplace's ProductActions point): a reason and a few words; said once per person
// while an administrator has not answered.
import { Button, Input, Radio } from '@arco-design/web-react';
import { IconExclamationCircle } from '@arco-design/web-react/icon';
import { Modal, testId, toast } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REASONS, useReporting, type ReportView } from './store.ts';

export function ReportButton({ productId, name }: { productId: string; name: string }) {
  const { t } = useTranslation('reports');
  const r = useReporting('product', productId, name);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportView['reason']>('harmful');
  const [detail, setDetail] = useState('');
  const done = !!r.times.data?.reported_by_me;
  return (
    <>
      <Button icon={<IconExclamationCircle />} disabled={done} onClick={() => setOpen(true)} data-testid="report-open">
        {done ? t('reported') : t('report')}
      </Button>
      <Modal
        visible={open}
        title={t('title', { name })}
        onCancel={() => setOpen(false)}
        okText={t('send')}
        confirmLoading={r.submit.isPending}
        onOk={() =>
          r.submit.mutate(
            { reason, detail },
            { onSuccess: () => (setOpen(false), setDetail(''), toast.success(t('thanks'))) },
          )
        }
        okButtonProps={testId('report-send')}
      >
        <Radio.Group direction="vertical" value={reason} onChange={setReason} data-testid="report-reasons">
          {REASONS.map((x) => (
            <Radio key={x} value={x}>
              {t(`reason.${x}`)}
            </Radio>
          ))}
        </Radio.Group>
        <Input.TextArea
          style={{ marginTop: 12 }}
          value={detail}
          onChange={setDetail}
          maxLength={2000}
          placeholder={t('detail')}
          data-testid="report-detail"
        />
      </Modal>
    </>
  );
}
