import { Button, Card, Empty, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import {
  byOrder,
  HomeSections,
  PageHeader,
  type RecentResource,
  type RegistryEntry,
  type ResourceKind,
  ResourceKinds,
  useFormat,
  useRegistryEntries,
  useStudio,
} from '@tessera/sdk/client';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GettingStarted } from './GettingStarted.tsx';
import './home.css';
import { Link, useNavigate } from 'react-router';

/** How many recent items the home page shows, across kinds. */
const RECENT = 8;

type KindEntry = RegistryEntry<ResourceKind>;
interface Recent {
  items: RecentResource[];
  loading: boolean;
}

/**
 * The workspace dashboard: a create button per enabled resource kind, the space's recent work across
 * kinds, then the sections other extensions add (templates, featured products). It names no kind:
 * what it offers is what the enabled extensions contribute.
 */
export function HomePage() {
  const { t } = useTranslation('home');
  const { platformName } = useStudio();
  const kindEntries = useRegistryEntries(ResourceKinds);
  const sectionEntries = useRegistryEntries(HomeSections);
  const kinds = useMemo(() => inOrder(kindEntries), [kindEntries]);
  const sections = useMemo(() => inOrder(sectionEntries), [sectionEntries]);
  const [recent, setRecent] = useState<Record<string, Recent>>({});
  // Compared by content: a kind's hook that answers a new array each time (an outside extension's) must not make
  // the page draw forever.
  const report = useCallback(
    (kind: string, r: Recent) =>
      setRecent((all) =>
        all[kind] && sameItems(all[kind].items, r.items) && all[kind].loading === r.loading
          ? all
          : { ...all, [kind]: r },
      ),
    [],
  );
  const creatable = kinds.filter((k) => k.value.createPath);
  const withRecent = useMemo(() => kinds.filter((k) => k.value.useRecent), [kinds]);
  const merged = useMemo(
    () =>
      withRecent
        .flatMap((k) => (recent[k.value.kind]?.items ?? []).map((item) => ({ item, kind: k })))
        .sort((a, b) => b.item.updatedAt - a.item.updatedAt)
        .slice(0, RECENT),
    [recent, withRecent],
  );
  const loading = withRecent.some((k) => recent[k.value.kind]?.loading !== false);

  return (
    <div className="tessera-page" data-testid="home-page">
      <PageHeader title={t('welcome', { platform: platformName })} />
      <GettingStarted />
      {kinds.length === 0 ? (
        <Empty description={t('noKinds')} data-testid="home-no-kinds" />
      ) : (
        <>
          {creatable.length > 0 && (
            <section aria-labelledby="home-create" style={{ marginBottom: 24 }}>
              <Typography.Title heading={6} id="home-create">
                {t('create')}
              </Typography.Title>
              <Space wrap size={12}>
                {creatable.map((k) => (
                  <CreateButton key={k.key} entry={k} />
                ))}
              </Space>
            </section>
          )}
          {withRecent.map((k) => (
            <RecentOf key={k.key} entry={k} onChange={report} />
          ))}
          {withRecent.length > 0 && (
            <section aria-labelledby="home-recent" style={{ marginBottom: 24 }}>
              <Typography.Title heading={6} id="home-recent">
                {t('recent')}
              </Typography.Title>
              {merged.length === 0 ? (
                loading ? (
                  <Spin data-testid="home-recent-loading" />
                ) : (
                  <Card data-testid="home-recent-empty">
                    <Typography.Text type="secondary">{t('recentEmpty')}</Typography.Text>
                  </Card>
                )
              ) : (
                <Card bodyStyle={{ padding: 0 }}>
                  {/* A plain list: Arco's List brings its pagination (and with it the Select) to the first page. */}
                  <ul className="tessera-home-recent" data-testid="home-recent">
                    {merged.map(({ item, kind }) => (
                      <RecentRow key={`${kind.key}:${item.id}`} item={item} kind={kind} />
                    ))}
                  </ul>
                </Card>
              )}
            </section>
          )}
        </>
      )}
      {sections.map((s) => {
        const Section = s.value.component;
        return (
          <section key={s.key} data-testid={`home-section-${s.key}`} style={{ marginBottom: 24 }}>
            {/* A section may load its code on first render. */}
            <Suspense fallback={null}>
              <Section />
            </Suspense>
          </section>
        );
      })}
    </div>
  );
}

function sameItems(a: RecentResource[], b: RecentResource[]): boolean {
  return (
    a === b ||
    (a.length === b.length &&
      a.every(
        (x, i) =>
          x.id === b[i].id &&
          x.updatedAt === b[i].updatedAt &&
          x.name === b[i].name &&
          x.description === b[i].description &&
          x.path === b[i].path,
      ))
  );
}

function inOrder<T extends { order?: number }>(entries: RegistryEntry<T>[]): RegistryEntry<T>[] {
  return [...entries].sort(byOrder);
}

function CreateButton({ entry }: { entry: KindEntry }) {
  const { t } = useTranslation(entry.owner);
  const navigate = useNavigate();
  const Icon = entry.value.icon;
  return (
    <Button
      size="large"
      icon={Icon ? <Icon /> : undefined}
      onClick={() => navigate(entry.value.createPath!)}
      data-testid={`home-create-${entry.value.kind}`}
    >
      {t(entry.value.createLabel ?? entry.value.label)}
    </Button>
  );
}

/** Runs one kind's recent-items hook and reports what it finds (renders nothing). */
function RecentOf({ entry, onChange }: { entry: KindEntry; onChange(kind: string, r: Recent): void }) {
  const { items, loading } = entry.value.useRecent!(RECENT);
  useEffect(() => onChange(entry.value.kind, { items, loading }), [entry.value.kind, items, loading, onChange]);
  return null;
}

function RecentRow({ item, kind }: { item: RecentResource; kind: KindEntry }) {
  const { t } = useTranslation(kind.owner);
  const format = useFormat();
  // An item without a picture of its own shows its kind's icon (every row has one, in the same place).
  const KindIcon = kind.value.icon;
  return (
    <li className="tessera-home-recent-item" data-testid="home-recent-item" data-kind={kind.value.kind}>
      <Space align="start">
        {item.icon ?? (
          <span className="tessera-home-recent-icon" data-testid="home-recent-kind-icon">
            {KindIcon && <KindIcon />}
          </span>
        )}
        <div style={{ minWidth: 0 }}>
          <Space size={8}>
            <Link to={item.path} style={{ fontWeight: 500 }}>
              {item.name}
            </Link>
            <Tag size="small">{t(kind.value.label)}</Tag>
          </Space>
          {item.description && (
            <Typography.Text type="secondary" ellipsis style={{ display: 'block', maxWidth: 560 }}>
              {item.description}
            </Typography.Text>
          )}
        </div>
      </Space>
      <Typography.Text type="secondary" className="tessera-home-recent-date">
        {format.dateTime(item.updatedAt)}
      </Typography.Text>
    </li>
  );
}
