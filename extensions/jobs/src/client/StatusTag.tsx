// A job's or a task's status as a coloured tag (waiting, running with a spinner, succeeded, failed, cancelled).
import { Spin, Tag } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';

const KEYS = ['waiting', 'running', 'success', 'failed', 'cancelled'] as const;
const COLORS = ['gray', 'arcoblue', 'green', 'red', 'orange'] as const;

export function StatusTag({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation('jobs');
  const key = KEYS[status] ?? 'waiting';
  return (
    <Tag color={COLORS[status] ?? 'gray'} data-testid={testId} data-status={key}>
      {status === 1 && <Spin size={10} style={{ marginRight: 4 }} />}
      {t(`status.${key}`)}
    </Tag>
  );
}
