import { Button, Drawer, Dropdown, Layout, Menu } from '@arco-design/web-react';
import { IconDown } from '@arco-design/web-react/icon';
import { isLanguage, LANGUAGES, SIDEBAR_GROUPS, groupOfArea } from '@tessera/sdk';
import {
  byOrder,
  HeaderItems,
  useShownEntries,
  Panels,
  Routes as RoutePoint,
  SidebarEntries,
  usePageTitle,
  useRegistryEntries,
  useStudio,
  preloadPage,
  type ClientRoute,
} from '@tessera/sdk/client';
import type { RegistryEntry } from '@tessera/core';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Link, matchPath, MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { PageErrorBoundary } from './ErrorBoundary.tsx';
import { PageLoading } from './PageLoading.tsx';

// Pages seldom seen (not found, the settings frame): their code loads when first shown.
const NotFound = lazy(() => import('./OtherPages.tsx').then((m) => ({ default: m.NotFound })));
const SettingsFrame = lazy(() => import('./OtherPages.tsx').then((m) => ({ default: m.SettingsFrame })));

/** A contributed page: its title (translated in its owner's namespace) and its error boundary. */
function Page({ entry }: { entry: RegistryEntry<ClientRoute> }) {
  const { report } = useStudio();
  const { t } = useTranslation(entry.owner);
  usePageTitle(entry.value.title ? t(entry.value.title) : undefined);
  const C = entry.value.component;
  return (
    <PageErrorBoundary owner={entry.owner} report={report} key={entry.key}>
      <Suspense fallback={<PageLoading />}>
        <C />
      </Suspense>
    </PageErrorBoundary>
  );
}

function LanguageSwitch() {
  const { language, setLanguage } = useStudio();
  const { t } = useTranslation('host');
  const menu = (
    <Menu
      selectedKeys={[language]}
      onClickMenuItem={(key) => isLanguage(key) && setLanguage(key)}
      data-testid="language-menu"
    >
      {LANGUAGES.map((l) => (
        <Menu.Item key={l}>{t(`languages.${l}`)}</Menu.Item>
      ))}
    </Menu>
  );
  return (
    <Dropdown droplist={menu} trigger="click" position="br">
      <Button
        size="small"
        aria-label={t('language')}
        aria-haspopup="menu"
        data-testid="language-switch"
        className="tessera-header-switch"
      >
        <span className="tessera-header-switch-text">{t(`languages.${language}`)}</span>
        <IconDown />
      </Button>
    </Dropdown>
  );
}

function SidebarMenu({ onNavigate }: { onNavigate?: () => void }) {
  const location = useLocation();
  // Entries for some people only (Settings for administrators) say so; asked again when they say what they read
  // changed (the user, once known) and as the page changes.
  const entries = useShownEntries(SidebarEntries, location.pathname);
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The page behind an entry starts loading when the pointer rests on it (or it has the focus).
  const routes = useRegistryEntries(RoutePoint);
  const preload = (path: string) => preloadPage(routes.find((r) => matchPath(r.value.path, path))?.value.component);
  const groups = useMemo(
    () =>
      SIDEBAR_GROUPS.map((group) => ({
        group,
        items: entries.filter((e) => (e.value.group ?? groupOfArea(e.value.area)) === group).sort(byOrder),
      })).filter((g) => g.items.length),
    [entries],
  );
  const selected = entries
    .filter(
      (e) =>
        e.value.path === location.pathname ||
        (e.value.path !== '/' && location.pathname.startsWith(`${e.value.path}/`)),
    )
    .map((e) => e.key);
  return (
    <Menu
      selectedKeys={selected}
      data-testid="sidebar-menu"
      onClickMenuItem={(key) => {
        const e = entries.find((x) => x.key === key);
        if (e) void navigate(e.value.path);
        onNavigate?.();
      }}
    >
      {groups.map((g) => {
        const items = g.items.map((e) => (
          <Menu.Item
            key={e.key}
            data-testid={`sidebar-${e.key}`}
            onMouseEnter={() => preload(e.value.path)}
            onFocus={() => preload(e.value.path)}
          >
            {e.value.icon}
            {t(e.value.label, { ns: e.owner })}
          </Menu.Item>
        ));
        // The first group (home, explore) has no title; a group with one entry is that entry ("Settings", not "Settings › Settings").
        return items.length === 1 || g.group === 'start' ? (
          items
        ) : (
          <Menu.ItemGroup key={g.group} title={t(`groups.${g.group}`, { ns: 'host' })}>
            {items}
          </Menu.ItemGroup>
        );
      })}
    </Menu>
  );
}

function AppLayout({ children }: { children: ReactNode }) {
  const { platformName, mobile } = useStudio();
  const { t } = useTranslation('host');
  const headerItems = useRegistryEntries(HeaderItems).slice().sort(byOrder);
  const [panelOpen, setPanelOpen] = useState(false);
  return (
    <Layout
      className={mobile ? 'tessera-shell tessera-mobile' : 'tessera-shell'}
      data-testid={mobile ? 'shell-mobile' : 'shell-desktop'}
    >
      <Layout.Header className="tessera-header">
        {mobile && (
          <Button
            className="tessera-menu-button"
            data-testid="mobile-menu-button"
            aria-label={t('menu')}
            onClick={() => setPanelOpen(true)}
          >
            ☰
          </Button>
        )}
        <Link to="/" className="tessera-brand" data-testid="brand">
          {platformName}
        </Link>
        <div className="tessera-header-items">
          {headerItems.map((h) => (
            <h.value.component key={h.key} />
          ))}
          {/* On a phone the language switch lives in the menu panel: the header keeps what fits. */}
          {!mobile && <LanguageSwitch />}
        </div>
      </Layout.Header>
      <Layout>
        {!mobile && (
          <Layout.Sider className="tessera-sider" width={220}>
            <SidebarMenu />
          </Layout.Sider>
        )}
        <Layout.Content className="tessera-content">{children}</Layout.Content>
      </Layout>
      {mobile && (
        <Drawer
          className="tessera-mobile-panel"
          data-testid="mobile-panel"
          placement="left"
          width={260}
          visible={panelOpen}
          title={t('menu')}
          footer={null}
          onCancel={() => setPanelOpen(false)}
        >
          <SidebarMenu onNavigate={() => setPanelOpen(false)} />
          <div className="tessera-mobile-language">
            <LanguageSwitch />
          </div>
        </Drawer>
      )}
    </Layout>
  );
}

function Router({ initialPath, children }: { initialPath?: string; children: ReactNode }) {
  return initialPath ? (
    <MemoryRouter initialEntries={[initialPath]}>{children}</MemoryRouter>
  ) : (
    <BrowserRouter>{children}</BrowserRouter>
  );
}

/** Routes, layout and panels, all from contributions. `initialPath` uses an in-memory router (tests). */
export function Shell({ initialPath }: { initialPath?: string } = {}) {
  const routes = useRegistryEntries(RoutePoint);
  const panels = useRegistryEntries(Panels).slice().sort(byOrder);
  const { report } = useStudio();
  const bare = routes.filter((r) => r.value.layout === 'bare');
  const app = routes.filter((r) => r.value.layout !== 'bare');
  return (
    <Router initialPath={initialPath}>
      <Routes>
        {bare.map((r) => (
          <Route key={r.key} path={r.value.path} element={<Page entry={r} />} />
        ))}
        {app.map((r) => (
          <Route
            key={r.key}
            path={r.value.path}
            element={
              <AppLayout>
                <Page entry={r} />
              </AppLayout>
            }
          />
        ))}
        <Route
          path="/settings/:key?"
          element={
            <AppLayout>
              <Suspense fallback={<PageLoading />}>
                <SettingsFrame />
              </Suspense>
            </AppLayout>
          }
        />
        <Route
          path="*"
          element={
            <AppLayout>
              <Suspense fallback={<PageLoading />}>
                <NotFound />
              </Suspense>
            </AppLayout>
          }
        />
      </Routes>
      {panels.map((p) => (
        <PageErrorBoundary key={p.key} owner={p.owner} report={report} fallback={null}>
          <p.value.component />
        </PageErrorBoundary>
      ))}
    </Router>
  );
}
