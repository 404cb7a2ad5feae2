import i18next, { type i18n as I18n } from 'i18next';
import {
  ErrorSinks,
  ExtensionHost,
  consoleLogger,
  type ExtensionCandidate,
  type ExtensionContext,
  type ReportedError,
} from '@tessera/core';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  isLanguage,
  LANGUAGES,
  languageOf,
  type ApiError,
  type Language,
} from '@tessera/sdk';
import {
  HeaderItems,
  I18nResources,
  Panels,
  RequestInterceptors,
  Routes,
  SettingsPages,
  SidebarEntries,
  createRequestClient,
  type ClientContext,
  type I18nResource,
  type RequestClient,
} from '@tessera/sdk/client';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';

export const LANGUAGE_KEY = 'tessera.language';

export interface Studio {
  host: ExtensionHost<ClientContext>;
  api: RequestClient;
  i18n: I18n;
  platformName: string;
  stop(): Promise<void>;
}

export interface CreateStudioOptions {
  candidates: ExtensionCandidate<ClientContext>[];
  platformName?: string;
  language?: Language;
  fetch?: typeof fetch;
  /** Shows the error notice of a failed request. */
  notify?: (err: ApiError) => void;
  /** Also send reported errors to the server log (default true in the browser). */
  reportToServer?: boolean;
}

/**
 * The language the studio speaks: the one chosen in it before (kept in the browser), else the browser's own
 * on a first visit (Chinese for zh-*, English for any other language it names), else the default.
 */
export function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    if (isLanguage(v)) return v;
  } catch {
    /* storage unavailable */
  }
  return browserLanguage() ?? DEFAULT_LANGUAGE;
}

function browserLanguage(): Language | undefined {
  const wanted =
    typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language].filter(Boolean);
  if (!wanted.length) return undefined;
  return languageOf(wanted[0]);
}

/** Builds the client side: kernel host, request client, i18n; starts the client halves. */
export async function createStudio(opts: CreateStudioOptions): Promise<Studio> {
  // Contexts are made when extensions start, after the request client below exists.
  const host: ExtensionHost<ClientContext> = new ExtensionHost<ClientContext>({
    logger: consoleLogger({ side: 'web' }, 'warn'),
    defaultStartTimeoutMs: 10_000,
    extendContext: (base) => extendContext(base),
  });
  const resources = host.points.registry(I18nResources);
  const i18n = i18next.createInstance();
  // Texts registered as loaders are read through this backend: i18next asks for a namespace in a language
  // when the page needs it (the language shown and the fallback one, before the first draw; another one when
  // the user switches to it).
  i18n.use({
    type: 'backend',
    init() {},
    read(language: string, namespace: string, done: (err: unknown, data?: Record<string, unknown> | false) => void) {
      const texts = resources.list().find((r) => r.namespace === namespace && r.language === language)?.resources;
      if (typeof texts !== 'function') return done(null, texts ?? {});
      texts().then(
        (m: unknown) => done(null, ((m as { default?: unknown }).default ?? m) as Record<string, unknown>),
        (e: unknown) => done(e, false),
      );
    },
  });
  await i18n.init({
    lng: opts.language ?? DEFAULT_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: ['host'],
    defaultNS: 'host',
    resources: { 'en-US': { host: enUS }, 'zh-CN': { host: zhCN } },
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  } as any);
  // A namespace given as loaders is read once all its languages are registered (an extension registers them
  // together): at the end of the start, or a moment later for an extension that starts afterwards.
  let started = false;
  const addBundle = (r: I18nResource) => {
    if (typeof r.resources !== 'function') i18n.addResourceBundle(r.language, r.namespace, r.resources, true, true);
    else if (started) queueMicrotask(() => void i18n.loadNamespaces(r.namespace));
  };
  resources.list().forEach(addBundle);
  resources.changes$.subscribe((c) => {
    if (c.type === 'added') addBundle(c.entry.value);
    else i18n.removeResourceBundle(c.entry.value.language, c.entry.value.namespace);
  });

  const report = (e: Omit<ReportedError, 'timestamp'>) => host.report(e);
  // Every call says the user's language (server texts and defaults such as node titles follow it).
  host.points
    .hook(RequestInterceptors)
    .tap('host', 'language', (r) => ({ ...r, headers: { ...r.headers, 'accept-language': i18n.language } }), {
      stage: -100,
    });
  const api = createRequestClient({
    interceptors: {
      call: (r) => host.points.hook(RequestInterceptors).call(r),
      get size() {
        return host.points.hook(RequestInterceptors).size;
      },
    },
    bus: host.bus,
    report,
    notify: opts.notify,
    fetch: opts.fetch,
  });

  if (opts.reportToServer ?? typeof window !== 'undefined') {
    // The host's own sink: errors other than failed requests (which the server logged already) go to the server log.
    let sent = 0;
    const windowStart = { at: Date.now() };
    host.points.hook(ErrorSinks).tap('host', 'server-log', (e) => {
      if (e.source === 'request') return;
      if (Date.now() - windowStart.at > 60_000) {
        windowStart.at = Date.now();
        sent = 0;
      }
      if (++sent > 30) return;
      void (opts.fetch ?? fetch)('/api/host/client_errors', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: e.message.slice(0, 4000),
          source: e.source,
          extensionId: e.extensionId,
          url: location.pathname,
          detail: e.detail,
        }),
      }).catch(() => undefined);
    });
  }

  const extendContext = (base: ExtensionContext): ClientContext =>
    Object.assign(base, {
      route: (r: Parameters<ClientContext['route']>[0]) => base.register(Routes, r),
      sidebar: (e: Parameters<ClientContext['sidebar']>[0]) => base.register(SidebarEntries, e),
      settingsPage: (p: Parameters<ClientContext['settingsPage']>[0]) => base.register(SettingsPages, p),
      panel: (p: Parameters<ClientContext['panel']>[0]) => base.register(Panels, p),
      headerItem: (p: Parameters<ClientContext['headerItem']>[0]) => base.register(HeaderItems, p),
      i18n: (res: Parameters<ClientContext['i18n']>[0]) => {
        for (const [language, r] of Object.entries(res))
          if (r && isLanguage(language))
            base.register(I18nResources, { namespace: base.extensionId, language, resources: r });
      },
      interceptRequests: (name: string, fn: any) => base.tap(RequestInterceptors, name, fn),
      errorSink: (name: string, fn: any) => base.tap(ErrorSinks, name, fn),
      api,
    }) as ClientContext;
  await host.start(opts.candidates);
  // The texts of the language shown, before the first draw.
  await i18n.loadNamespaces([...new Set(resources.list().map((r) => r.namespace))]);
  started = true;
  return { host, api, i18n, platformName: opts.platformName ?? 'Tessera Studio', stop: () => host.stop() };
}
