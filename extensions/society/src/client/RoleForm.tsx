// Adding a role to a society: an agent (a persona and a model), a published bot of the space, or a person.
import { Button, Input, Select, Space } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { ModelSelect } from '@tessera/ext-models/client';
import { useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NewRole } from './store.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListBots } from '@tessera/ext-bots/api';

const EMPTY: NewRole = { name: '', kind: 'agent', persona: '', model_id: '', bot_id: '' };

export function RoleForm({
  spaceId,
  adding,
  onAdd,
}: {
  spaceId: string;
  adding: boolean;
  onAdd(role: NewRole, done: () => void): void;
}) {
  const { t } = useTranslation('society');
  const [role, setRole] = useState<NewRole>(EMPTY);
  const ready = !!role.name.trim() && (role.kind !== 'bot' || !!role.bot_id);
  return (
    <div style={{ display: 'grid', gap: 6, marginTop: 8 }} data-testid="society-role-form">
      <Space>
        <Input
          value={role.name}
          onChange={(name) => setRole({ ...role, name })}
          placeholder={t('roleName')}
          maxLength={50}
          data-testid="society-role-name"
        />
        <Select
          value={role.kind}
          onChange={(kind) => setRole({ ...role, kind })}
          style={{ width: 140 }}
          data-testid="society-role-kind"
        >
          <Select.Option value="agent">{t('kind.agent')}</Select.Option>
          <Select.Option value="bot">{t('kind.bot')}</Select.Option>
          <Select.Option value="human">{t('kind.human')}</Select.Option>
        </Select>
      </Space>
      {role.kind === 'agent' && (
        <>
          <Input.TextArea
            value={role.persona}
            onChange={(persona) => setRole({ ...role, persona })}
            placeholder={t('persona')}
            autoSize={{ minRows: 2, maxRows: 5 }}
            data-testid="society-role-persona"
          />
          <ModelSelect
            spaceId={spaceId}
            value={role.model_id || undefined}
            onChange={(model_id) => setRole({ ...role, model_id })}
          />
        </>
      )}
      {role.kind === 'bot' && (
        <PublishedBot spaceId={spaceId} value={role.bot_id} onChange={(bot_id) => setRole({ ...role, bot_id })} />
      )}
      <div>
        <Button
          disabled={!ready}
          loading={adding}
          onClick={() => onAdd(role, () => setRole(EMPTY))}
          data-testid="society-role-add"
        >
          {t('addRole')}
        </Button>
      </div>
    </div>
  );
}

/** A bot of the space published to the API channel (where a society's bot roles speak through). */
function PublishedBot({ spaceId, value, onChange }: { spaceId: string; value: string; onChange(id: string): void }) {
  const { t } = useTranslation('society');
  const api = useApi();
  const bots = useQuery({
    queryKey: ['bots', 'list', spaceId, 'published-for-societies'],
    retry: false,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListBots>>(
        '/api/draftbot/get_draft_bot_list',
        { space_id: spaceId, is_publish: true, page_size: 100 },
        { handled: () => true },
      ),
  });
  return (
    <Select
      value={value || undefined}
      onChange={onChange}
      placeholder={t('chooseBot')}
      loading={bots.isLoading}
      notFoundContent={t('noBots')}
      data-testid="society-role-bot"
    >
      {(bots.data?.bot_draft_list ?? []).map((b) => (
        <Select.Option key={b.bot_id} value={b.bot_id}>
          {b.name}
        </Select.Option>
      ))}
    </Select>
  );
}
