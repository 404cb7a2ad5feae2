import { Button, Dropdown, Menu } from '@arco-design/web-react';
import { IconDown } from '@arco-design/web-react/icon';
import { lazyView } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentSpace } from './api.ts';
import { currentSpace } from './current.ts';

const CREATE = '__create__';

// The dialog's code loads when a space is first created.
const CreateSpaceModal = lazyView(() => import('./CreateSpaceModal.tsx').then((m) => m.CreateSpaceModal));

/** The header's space switcher: every space of the user, and "create team space" (a menu under a button). */
export function SpaceSwitcher() {
  const { t } = useTranslation('spaces');
  const { space, spaces } = useCurrentSpace();
  const [creating, setCreating] = useState(false);
  if (!space) return null;
  const label = (s: typeof space) => (s.space_type === 1 ? `${t('switcher.personal')} · ${s.name}` : s.name);
  const menu = (
    <Menu
      selectedKeys={[space.space_id]}
      onClickMenuItem={(key) => (key === CREATE ? setCreating(true) : currentSpace().set(key))}
      data-testid="space-switcher-menu"
    >
      {spaces.map((s) => (
        <Menu.Item key={s.space_id}>{label(s)}</Menu.Item>
      ))}
      <Menu.Item key={CREATE}>+ {t('switcher.create')}</Menu.Item>
    </Menu>
  );
  return (
    <>
      <Dropdown droplist={menu} trigger="click" position="br">
        <Button
          size="small"
          aria-label={t('switcher.label')}
          aria-haspopup="menu"
          data-testid="space-switcher"
          className="tessera-header-switch"
          style={{ maxWidth: 200 }}
        >
          <span className="tessera-header-switch-text">{label(space)}</span>
          <IconDown />
        </Button>
      </Dropdown>
      {creating && <CreateSpaceModal visible onClose={() => setCreating(false)} />}
    </>
  );
}
