// What the palette lists for a query: the studio's pages, its create actions, then what each search provider
// finds (asked as the person types, the search typed past aborted).
import { messageOf } from '@tessera/sdk';
import {
  byOrder,
  useShownEntries,
  ResourceKinds,
  SearchProviders,
  SidebarEntries,
  useRegistryEntries,
  type SearchResult,
} from '@tessera/sdk/client';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { matchScore } from './store.ts';

export interface PaletteItem {
  key: string;
  title: string;
  description?: string;
  /** The kind's name, for a resource. */
  tag?: string;
  icon?: ReactNode;
  path: string;
}

export interface PaletteSection {
  key: string;
  title: string;
  items: PaletteItem[];
  loading?: boolean;
  error?: string;
}

/** How long the typing must rest before providers are asked. */
const SETTLE_MS = 150;
/** At most this many pages and actions for a query. */
const LOCAL_LIMIT = 6;

function ranked<T extends { title: string }>(items: T[], query: string): T[] {
  return items
    .map((item) => ({ item, score: matchScore(item.title, query) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, query ? LOCAL_LIMIT : undefined)
    .map((x) => x.item);
}

export function usePaletteSections(query: string): PaletteSection[] {
  const { t } = useTranslation();
  const sidebar = useShownEntries(SidebarEntries);
  const kinds = useRegistryEntries(ResourceKinds);
  const providers = useRegistryEntries(SearchProviders);
  const kindOf = useMemo(() => new Map(kinds.map((k) => [k.value.kind, k])), [kinds]);

  const pages = useMemo(
    () =>
      ranked(
        sidebar.map((e) => ({
          key: `page:${e.key}`,
          title: t(e.value.label, { ns: e.owner }),
          icon: e.value.icon,
          path: e.value.path,
        })),
        query,
      ),
    [sidebar, query, t],
  );
  const actions = useMemo(
    () =>
      ranked(
        kinds
          .filter((k) => k.value.createPath)
          .sort(byOrder)
          .map((k) => {
            const Icon = k.value.icon;
            return {
              key: `create:${k.value.kind}`,
              title: t(k.value.createLabel ?? k.value.label, { ns: k.owner }),
              icon: Icon ? <Icon /> : undefined,
              path: k.value.createPath!,
            };
          }),
        query,
      ),
    [kinds, query, t],
  );

  const [found, setFound] = useState<Record<string, { items: SearchResult[]; loading: boolean; error?: string }>>({});
  useEffect(() => {
    const q = query.trim();
    setFound({});
    if (!q || providers.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      for (const p of providers) {
        setFound((all) => ({ ...all, [p.key]: { items: [], loading: true } }));
        p.value
          .search(q, controller.signal)
          .then(
            (items) =>
              !controller.signal.aborted && setFound((all) => ({ ...all, [p.key]: { items, loading: false } })),
          )
          .catch((e: unknown) => {
            if (controller.signal.aborted) return;
            const message = messageOf(e);
            setFound((all) => ({ ...all, [p.key]: { items: [], loading: false, error: message } }));
          });
      }
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, providers]);

  const searched: PaletteSection[] = providers
    .slice()
    .sort(byOrder)
    .flatMap((p) => {
      const f = found[p.key];
      if (!f) return [];
      const items = f.items.map((r) => {
        const kind = r.kind ? kindOf.get(r.kind) : undefined;
        const Icon = kind?.value.icon;
        return {
          key: `${p.key}:${r.key}`,
          title: r.title,
          description: r.description,
          path: r.path,
          icon: Icon ? <Icon /> : undefined,
          tag: kind ? t(kind.value.label, { ns: kind.owner }) : undefined,
        };
      });
      return [{ key: p.key, title: t(p.value.label, { ns: p.owner }), items, loading: f.loading, error: f.error }];
    });

  const sections: PaletteSection[] = [
    { key: 'actions', title: t('actions', { ns: 'navigator' }), items: actions },
    { key: 'pages', title: t('pages', { ns: 'navigator' }), items: pages },
    ...searched,
  ];
  return sections.filter((s) => s.items.length || s.loading || s.error);
}
