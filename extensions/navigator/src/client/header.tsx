// The header's way in: "+ Create" (a menu of every kind's create action) and the search button that opens the
// palette; the Ctrl/⌘-K listener and the palette itself (its code loads when first opened).
import { Button, Dropdown, Menu } from '@arco-design/web-react';
import { IconPlus, IconSearch } from '@arco-design/web-react/icon';
import { byOrder, lazyView, ResourceKinds, useRegistryEntries, useStudio } from '@tessera/sdk/client';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { palette, usePaletteOpen } from './store.ts';
import './navigator.css';

const Palette = lazyView(() => import('./Palette.tsx').then((m) => m.Palette), { fallback: null });

export function CreateMenu() {
  const { t } = useTranslation();
  const { mobile } = useStudio();
  const navigate = useNavigate();
  const kinds = useRegistryEntries(ResourceKinds);
  const creatable = useMemo(() => kinds.filter((k) => k.value.createPath).sort(byOrder), [kinds]);
  if (!creatable.length) return null;
  const menu = (
    <Menu
      onClickMenuItem={(key) => navigate(creatable.find((k) => k.value.kind === key)!.value.createPath!)}
      data-testid="create-menu-list"
    >
      {creatable.map((k) => {
        const Icon = k.value.icon;
        return (
          <Menu.Item key={k.value.kind} data-testid={`create-menu-${k.value.kind}`}>
            {Icon && <Icon style={{ marginRight: 8 }} />}
            {t(k.value.createLabel ?? k.value.label, { ns: k.owner })}
          </Menu.Item>
        );
      })}
    </Menu>
  );
  return (
    <Dropdown droplist={menu} trigger="click" position="br">
      <Button
        type="primary"
        size="small"
        icon={<IconPlus />}
        aria-label={t('create', { ns: 'navigator' })}
        aria-haspopup="menu"
        className="tessera-header-create"
        data-testid="create-menu"
      >
        {!mobile && t('create', { ns: 'navigator' })}
      </Button>
    </Dropdown>
  );
}

export function SearchButton() {
  const { t } = useTranslation('navigator');
  const { mobile } = useStudio();
  // Where the header is (a signed-in page), Ctrl/⌘-K opens the palette.
  useEffect(() => palette.available(), []);
  return (
    <Button
      size="small"
      icon={<IconSearch />}
      aria-label={t('searchLabel')}
      title={t('searchLabel')}
      className="tessera-header-search"
      onClick={palette.open}
      data-testid="palette-open"
    >
      {/* In a span: Arco spaces a button's text from its icon only when the text is an element. */}
      {!mobile && (
        <span>
          {t('search')}
          <kbd className="tessera-kbd">{/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl K'}</kbd>
        </span>
      )}
    </Button>
  );
}

/** Listens for Ctrl/⌘-K anywhere in the studio and shows the palette while it is open. */
export function PalettePanel() {
  const open = usePaletteOpen();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        palette.toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // Closed when the person leaves for another page by other means (the browser's back).
  useEffect(() => () => palette.close(), []);
  return open ? <Palette /> : null;
}
