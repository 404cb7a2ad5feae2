// The space's apps (UI builder): made with a name, or as an agent app around a bot; opened in the builder, their
// published page linked.
import { Button, Input, Tag } from '@arco-design/web-react';
import { EmptyState, ListRow, PageHeader, useFormat } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AgentAppDialog } from './AgentAppDialog.tsx';
import { useApps, useSpaceId } from './store.ts';

export function AppsPage() {
  const { t } = useTranslation('ui-builder');
  const spaceId = useSpaceId();
  const apps = useApps(spaceId);
  const navigate = useNavigate();
  const format = useFormat();
  const [name, setName] = useState('');
  const [agent, setAgent] = useState(false);
  const list = apps.list.data ?? [];
  return (
    <div className="tessera-page" data-testid="ui-apps">
      <PageHeader title={t('title')} intro={t('intro')} />
      <div style={{ display: 'flex', gap: 8, maxWidth: 520, marginBottom: 12 }}>
        <Input
          value={name}
          onChange={setName}
          placeholder={t('namePlaceholder')}
          maxLength={60}
          data-testid="ui-app-name"
        />
        <Button
          type="primary"
          disabled={!name.trim()}
          loading={apps.create.isPending}
          onClick={() => apps.create.mutate(name, { onSuccess: (r) => void navigate(`/ui-apps/${r.ui.ui_id}`) })}
          data-testid="ui-app-create"
        >
          {t('create')}
        </Button>
        <Button onClick={() => setAgent(true)} data-testid="agent-app-new">
          {t('agent.new')}
        </Button>
      </div>
      <AgentAppDialog spaceId={spaceId} visible={agent} onClose={() => setAgent(false)} />
      {!apps.list.isLoading && !list.length && <EmptyState description={t('empty')} testId="ui-apps-empty" />}
      {list.map((a) => (
        <ListRow key={a.ui_id} testId="ui-app-row">
          <Link to={`/ui-apps/${a.ui_id}`} style={{ flex: 1 }}>
            {a.ui_name}
          </Link>
          {a.app_kind === 'agent' && (
            <Tag size="small" color="arcoblue">
              {t('agent.tag')}
            </Tag>
          )}
          <Tag size="small">{t(`access.${a.access}`)}</Tag>
          {a.published_version > 0 ? (
            <a href={`/apps/${a.ui_id}`} target="_blank" rel="noreferrer">
              {t('open')}
            </a>
          ) : (
            <Tag size="small">{t('draft')}</Tag>
          )}
          <span style={{ fontSize: 12, color: 'var(--color-text-3)' }}>{format.dateTime(a.updated_at * 1000)}</span>
        </ListRow>
      ))}
    </div>
  );
}
