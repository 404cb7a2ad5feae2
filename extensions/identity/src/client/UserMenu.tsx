import { Avatar, Button, Dropdown, Menu } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentUserStore, useCurrentUser } from './hooks.ts';

export function UserMenu() {
  const { t } = useTranslation('identity');
  const user = useCurrentUser();
  const navigate = useNavigate();
  if (!user) return null;
  return (
    <Dropdown
      trigger="click"
      position="br"
      droplist={
        <Menu
          onClickMenuItem={async (key) => {
            if (key === 'profile') void navigate('/profile');
            if (key === 'tokens') void navigate('/tokens');
            if (key === 'sign-out') {
              await currentUserStore().signOut();
              window.location.assign('/sign-in');
            }
          }}
        >
          <Menu.Item key="profile" data-testid="user-menu-profile">
            {t('menu.profile')}
          </Menu.Item>
          <Menu.Item key="tokens" data-testid="user-menu-tokens">
            {t('menu.tokens')}
          </Menu.Item>
          <Menu.Item key="sign-out" data-testid="user-menu-sign-out">
            {t('menu.signOut')}
          </Menu.Item>
        </Menu>
      }
    >
      <Button type="text" data-testid="user-menu" style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
        <Avatar size={24}>
          {user.avatar ? <img src={user.avatar} alt="" /> : (user.name[0] ?? '?').toUpperCase()}
        </Avatar>
        <span className="tessera-user-name">{user.name}</span>
      </Button>
    </Dropdown>
  );
}
