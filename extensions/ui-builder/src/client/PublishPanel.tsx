// An app's versions: its publications (each version with its access and note), and packages kept from it (a new
// package, or the next version of one) to install as new apps.
import { Button, Input, Select, Space, Typography } from '@arco-design/web-react';
import { toast, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppExtras } from './store.ts';

export function PublishPanel({ uiId, spaceId, name }: { uiId: string; spaceId: string; name: string }) {
  const { t } = useTranslation('ui-builder');
  const format = useFormat();
  const x = useAppExtras(uiId, spaceId);
  const [pkg, setPkg] = useState('');
  const [note, setNote] = useState('');
  const mine = (x.packages.data ?? []).filter((p) => p.source_app_id === uiId);
  return (
    <div style={{ marginTop: 16 }} data-testid="ui-versions">
      <Typography.Text bold>{t('versions.title')}</Typography.Text>
      {(x.publications.data ?? []).slice(0, 8).map((p) => (
        <div key={p.version} style={{ fontSize: 12, marginTop: 4 }} data-testid="ui-publication">
          v{p.version} · {t(`access.${p.access}`, { defaultValue: p.access })} · {format.dateTime(p.created_at * 1000)}
          {p.description && ` · ${p.description}`}
        </div>
      ))}
      {!x.publications.data?.length && (
        <div style={{ fontSize: 12, color: 'var(--color-text-3)', marginTop: 4 }}>{t('versions.none')}</div>
      )}
      <Typography.Text bold style={{ display: 'block', marginTop: 12 }}>
        {t('versions.package')}
      </Typography.Text>
      <Space direction="vertical" style={{ width: '100%', marginTop: 4 }}>
        <Select size="small" value={pkg} onChange={setPkg} data-testid="ui-package-pick">
          <Select.Option value="">{t('versions.newPackage')}</Select.Option>
          {mine.map((p) => (
            <Select.Option key={p.package_id} value={p.package_id}>
              {p.name} · v{p.latest_version}
            </Select.Option>
          ))}
        </Select>
        <Space>
          <Input size="small" value={note} onChange={setNote} placeholder={t('versions.note')} maxLength={200} />
          <Button
            size="small"
            loading={x.keepPackage.isPending}
            onClick={() =>
              x.keepPackage.mutate(
                { package_id: pkg || undefined, name, note },
                {
                  onSuccess: (r) => {
                    setNote('');
                    setPkg(r.package.package_id);
                    toast.success(t('versions.kept', { name: r.package.name, v: r.package.latest_version }));
                  },
                },
              )
            }
            data-testid="ui-package-keep"
          >
            {t('keep')}
          </Button>
        </Space>
      </Space>
    </div>
  );
}
