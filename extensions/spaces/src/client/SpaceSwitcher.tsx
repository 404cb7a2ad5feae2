import { Select } from '@arco-design/web-react';
import { lazyView } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentSpace } from './api.ts';
import { currentSpace } from './current.ts';

const CREATE = '__create__';

// The dialog's code loads when a space is first created.
const CreateSpaceModal = lazyView(() => import('./CreateSpaceModal.tsx').then((m) => m.CreateSpaceModal));

/** The header's space switcher: every space of the user, and "create team space". */
export function SpaceSwitcher() {
  const { t } = useTranslation('spaces');
  const { space, spaces } = useCurrentSpace();
  const [creating, setCreating] = useState(false);
  if (!space) return null;
  return (
    <>
      <Select
        size="small"
        aria-label={t('switcher.label')}
        data-testid="space-switcher"
        value={space.space_id}
        style={{ width: 180 }}
        onChange={(v) => (v === CREATE ? setCreating(true) : currentSpace().set(v))}
      >
        {spaces.map((s) => (
          <Select.Option key={s.space_id} value={s.space_id}>
            {s.space_type === 1 ? `${t('switcher.personal')} · ${s.name}` : s.name}
          </Select.Option>
        ))}
        <Select.Option key={CREATE} value={CREATE}>
          + {t('switcher.create')}
        </Select.Option>
      </Select>
      {creating && <CreateSpaceModal visible onClose={() => setCreating(false)} />}
    </>
  );
}
