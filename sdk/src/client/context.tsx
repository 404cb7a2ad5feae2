import { createContext, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type {
  Disposable,
  EventBus,
  ExtensionContext,
  ExtensionDefinition,
  HookFn,
  RegistryEntry,
  RegistryPointToken,
  RegistryView,
} from '@tessera/core';
import type { ZodType, z } from 'zod';
import type { Language } from '../areas.ts';
import type { ReportedError } from '@tessera/core';
import type {
  ClientRoute,
  HeaderItem,
  I18nTexts,
  OutgoingRequest,
  Panel,
  SettingsPage,
  SidebarEntry,
} from './points.ts';
import { isShown } from './points.ts';
import type { RequestClient } from './request.ts';

export interface ClientContext<Config = unknown> extends ExtensionContext<Config> {
  route(route: ClientRoute): Disposable;
  sidebar(entry: SidebarEntry): Disposable;
  settingsPage(page: SettingsPage): Disposable;
  panel(panel: Panel): Disposable;
  headerItem(item: HeaderItem): Disposable;
  /**
   * Translations for this extension's namespace (its id), per language: the texts, or better a loader
   * (`'en-US': () => import('../locales/en-US.json')`): the page then downloads only the language it shows.
   */
  i18n(resources: Partial<Record<Language, I18nTexts>>): void;
  interceptRequests(name: string, fn: HookFn<[OutgoingRequest], OutgoingRequest>): Disposable;
  errorSink(name: string, fn: (e: ReportedError) => void): Disposable;
  readonly api: RequestClient;
}

export interface ClientExtension<Config = unknown> extends ExtensionDefinition<ClientContext<Config>> {
  side: 'client';
}

export function defineExtension<S extends ZodType | undefined = undefined>(def: {
  id: string;
  configSchema?: S;
  register?(ctx: ClientContext<S extends ZodType ? z.output<S> : unknown>): void;
  start?(ctx: ClientContext<S extends ZodType ? z.output<S> : unknown>): void | Promise<void>;
  stop?(ctx: ClientContext<S extends ZodType ? z.output<S> : unknown>): void | Promise<void>;
}): ClientExtension<S extends ZodType ? z.output<S> : unknown> {
  return { ...(def as any), side: 'client' };
}

/** What the web host gives to every component. */
export interface StudioRuntime {
  platformName: string;
  api: RequestClient;
  bus: EventBus;
  registry<T>(point: RegistryPointToken<T>): RegistryView<T>;
  report(e: Omit<ReportedError, 'timestamp'>): void;
  language: Language;
  setLanguage(lang: Language): void;
  /** True at a viewport width of 640 px or less. */
  mobile: boolean;
}

export const StudioContext = createContext<StudioRuntime | null>(null);

export function useStudio(): StudioRuntime {
  const s = useContext(StudioContext);
  if (!s) throw new Error('useStudio() must be used inside the Tessera shell (or the test renderer)');
  return s;
}

export function useApi(): RequestClient {
  return useStudio().api;
}

export interface Formatters {
  /** A moment as the language writes it (2026/11/23 13:04 in zh-CN, Nov 23, 2026, 1:04 PM in en-US). */
  dateTime(v: Date | number | string): string;
  date(v: Date | number | string): string;
  number(n: number): string;
}

/** Formatters for dates and numbers in the studio's language (never the browser's default). */
export function formattersFor(language: string): Formatters {
  const dt = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const d = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
  const n = new Intl.NumberFormat(language);
  const toDate = (v: Date | number | string) => (v instanceof Date ? v : new Date(v));
  return { dateTime: (v) => dt.format(toDate(v)), date: (v) => d.format(toDate(v)), number: (x) => n.format(x) };
}

/** Dates and numbers as the studio's language writes them. */
export function useFormat(): Formatters {
  const { language } = useStudio();
  return useMemo(() => formattersFor(language), [language]);
}

/** The live entries (key, owner, value) of a registry point; re-renders when registrations change. */
export function useRegistryEntries<T>(point: RegistryPointToken<T>): RegistryEntry<T>[] {
  const { registry } = useStudio();
  const view = registry(point);
  const store = useMemo(() => {
    let snapshot = view.entries();
    return {
      subscribe: (cb: () => void) => {
        const sub = view.changes$.subscribe(() => {
          snapshot = view.entries();
          cb();
        });
        return () => sub.unsubscribe();
      },
      get: () => snapshot,
    };
  }, [view]);
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/**
 * The entries of a registry point that show for the person signed in now (`isShown`), asked again when an entry says
 * what its `visible` reads has changed (`changes`) and on `again` (e.g. a navigation).
 */
export function useShownEntries<T extends { visible?(): boolean; changes?(onChange: () => void): () => void }>(
  point: RegistryPointToken<T>,
  again?: unknown,
): RegistryEntry<T>[] {
  const all = useRegistryEntries(point);
  const [changed, setChanged] = useState(0);
  useEffect(() => {
    const ask = () => setChanged((n) => n + 1);
    // An entry whose `changes` throws is not listened to (as one whose `visible` throws is hidden).
    const stops = all.map((e) => {
      try {
        return e.value.changes?.(ask);
      } catch {
        return undefined;
      }
    });
    // A change between the first draw and now told nobody: ask once more.
    if (stops.some(Boolean)) ask();
    return () => stops.forEach((stop) => stop?.());
  }, [all]);
  // oxlint-disable-next-line react/exhaustive-deps -- `visible` reads state kept outside React: `changed` and `again` say when to ask again
  return useMemo(() => all.filter((e) => isShown(e.value)), [all, changed, again]);
}

/** The live contents of a registry point. */
export function useRegistry<T>(point: RegistryPointToken<T>): T[] {
  const entries = useRegistryEntries(point);
  return useMemo(() => entries.map((e) => e.value), [entries]);
}

/** Sets document.title to "<title> - <platform>", or the platform name alone. */
export function usePageTitle(title?: string): void {
  const { platformName } = useStudio();
  useEffect(() => {
    document.title = title ? `${title} - ${platformName}` : platformName;
  }, [title, platformName]);
}
