import { ConfigProvider } from '@arco-design/web-react';
import arcoEnUS from '@arco-design/web-react/es/locale/en-US';
import arcoZhCN from '@arco-design/web-react/es/locale/zh-CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_LANGUAGE, isLanguage, MOBILE_MAX_WIDTH, type Language } from '@tessera/sdk';
import { StudioContext, type StudioRuntime } from '@tessera/sdk/client';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { LANGUAGE_KEY, type Studio } from '../runtime.ts';

function useMobile(): boolean {
  const query = `(max-width: ${MOBILE_MAX_WIDTH}px)`;
  const [mobile, setMobile] = useState(() => typeof matchMedia !== 'undefined' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia === 'undefined') return;
    const mq = matchMedia(query);
    const on = () => setMobile(mq.matches);
    mq.addEventListener('change', on);
    on();
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return mobile;
}

/** Providers every page relies on: the studio runtime, i18n, react-query, Arco's locale. */
export function StudioProvider({
  studio,
  children,
  queryClient,
}: {
  studio: Studio;
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  const [language, setLang] = useState<Language>(
    isLanguage(studio.i18n.language) ? studio.i18n.language : DEFAULT_LANGUAGE,
  );
  const mobile = useMobile();
  const client = useMemo(
    () => queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
    [queryClient],
  );
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const runtime = useMemo<StudioRuntime>(
    () => ({
      platformName: studio.platformName,
      api: studio.api,
      bus: studio.host.bus,
      registry: (p) => studio.host.points.registry(p),
      report: (e) => studio.host.report(e),
      language,
      setLanguage: (lang) => {
        void studio.i18n.changeLanguage(lang);
        try {
          localStorage.setItem(LANGUAGE_KEY, lang);
        } catch {
          /* storage unavailable: the choice lasts for this page only */
        }
        setLang(lang);
      },
      mobile,
    }),
    [studio, language, mobile],
  );
  return (
    <StudioContext.Provider value={runtime}>
      <I18nextProvider i18n={studio.i18n}>
        <QueryClientProvider client={client}>
          <ConfigProvider locale={language === 'zh-CN' ? arcoZhCN : arcoEnUS}>{children}</ConfigProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </StudioContext.Provider>
  );
}
