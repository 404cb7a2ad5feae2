import { Button, Input, Rate, Space, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function HelloPage() {
  const { t } = useTranslation('hello');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState('world');
  const q = useQuery({
    queryKey: ['hello', name],
    queryFn: () => api.get<{ text: string; count: number }>('/api/hello/greeting', { name }),
  });
  const greet = useMutation({
    mutationFn: () => api.post<{ count: number }>('/api/hello/greet', { name }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['hello'] }),
  });
  return (
    <div className="tessera-page" data-testid="hello-page">
      <Typography.Title heading={4}>{t('title')}</Typography.Title>
      <Space direction="vertical">
        <Input aria-label={t('name')} value={name} onChange={setName} style={{ width: 240 }} data-testid="hello-name" />
        <Typography.Text data-testid="hello-greeting">
          {q.data ? t('greeting', { text: q.data.text }) : '…'}
        </Typography.Text>
        <Typography.Text data-testid="hello-count">{t('count', { count: q.data?.count ?? 0 })}</Typography.Text>
        {/* An Arco component the studio's own pages do not use (this remote brings its copy) and a link through the studio's router. */}
        <Rate readonly count={5} value={Math.min(5, q.data?.count ?? 0)} data-testid="hello-rate" />
        <Link to="/" data-testid="hello-home">
          {t('home')}
        </Link>
        <Button type="primary" loading={greet.isPending} onClick={() => greet.mutate()} data-testid="hello-greet">
          {t('greet')}
        </Button>
      </Space>
    </div>
  );
}
