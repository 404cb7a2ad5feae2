import { Button, Input, Space, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function HelloPage() {
  const { t } = useTranslation('hello');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState('world');
  const q = useQuery({ queryKey: ['hello', name], queryFn: () => api.get<{ text: string; count: number }>('/api/hello/greeting', { name }) });
  const greet = useMutation({
    mutationFn: () => api.post<{ count: number }>('/api/hello/greet', { name }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['hello'] }),
  });
  return (
    <div className="tessera-page" data-testid="hello-page">
      <Typography.Title heading={4}>{t('title')}</Typography.Title>
      <Space direction="vertical">
        <Input aria-label={t('name')} value={name} onChange={setName} style={{ width: 240 }} data-testid="hello-name" />
        <Typography.Text data-testid="hello-greeting">{q.data ? t('greeting', { text: q.data.text }) : '…'}</Typography.Text>
        <Typography.Text data-testid="hello-count">{t('count', { count: q.data?.count ?? 0 })}</Typography.Text>
        <Button type="primary" loading={greet.isPending} onClick={() => greet.mutate()} data-testid="hello-greet">
          {t('greet')}
        </Button>
      </Space>
    </div>
  );
}
