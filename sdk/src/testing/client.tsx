// @tessera/sdk/testing/client: mount one client extension in a test shell (happy-dom or a browser).
// Arco renders toasts with createRoot from react-dom/client under React 19 (node resolves its CommonJS build).
import '@arco-design/web-react/lib/_util/react-19-adapter';
import type { ExtensionDefinition } from '@tessera/core';
import { render, type RenderResult } from '@testing-library/react';
import { createStudio, type Studio } from '@tessera/web/runtime';
import { Shell } from '@tessera/web/shell';
import { StudioProvider } from '@tessera/web/provider';
import type { Language } from '../areas.ts';
import type { ClientContext } from '../client/context.tsx';
import type { ExtensionTester } from '@tessera/server';

export interface RenderExtensionOptions {
  /** The page to open (default '/'). */
  path?: string;
  language?: Language;
  /** Answer API calls with this server (the extension's server half in an ExtensionTester). */
  server?: ExtensionTester;
  /** The test user the calls act as (with `server`). */
  as?: string;
  /** Or answer them with this fetch. */
  fetch?: typeof fetch;
  /** Other client halves to start alongside (the extension under test may use their services). */
  others?: ExtensionDefinition<ClientContext>[];
}

export interface RenderedExtension extends RenderResult {
  studio: Studio;
  /** Every API error notice the request client raised. */
  notices: { msg: string; logId: string }[];
}

function injectFetch(server: ExtensionTester, as?: string): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname + input.search : input.url;
    const headers = { ...(init?.headers as Record<string, string>), ...(as ? { 'x-test-user': as } : {}) };
    const res = await server.server.app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url,
      headers,
      payload: init?.body as string | undefined,
    });
    return new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> });
  };
}

export async function renderExtension(
  extension: ExtensionDefinition<ClientContext>,
  opts: RenderExtensionOptions = {},
): Promise<RenderedExtension> {
  const notices: RenderedExtension['notices'] = [];
  const all = [...(opts.others ?? []), extension];
  const studio = await createStudio({
    // The extension under test may use what the others provide (they are its optional dependencies).
    candidates: all.map((def) => ({
      manifest: {
        id: def.id,
        version: '0.0.0-test',
        requires: [],
        optional: def === extension ? (opts.others ?? []).map((o) => o.id) : [],
      },
      source: 'test',
      load: async () => def,
    })),
    language: opts.language ?? 'en-US',
    fetch: opts.fetch ?? (opts.server ? injectFetch(opts.server, opts.as) : undefined),
    notify: (e) => notices.push({ msg: e.msg, logId: e.logId }),
    reportToServer: false,
  });
  const failed = studio.host.status().filter((s) => s.state === 'failed');
  if (failed.length)
    throw new Error(`client extension failed to start: ${failed.map((f) => `${f.id}: ${f.reason}`).join('; ')}`);
  const result = render(
    <StudioProvider studio={studio}>
      <Shell initialPath={opts.path ?? '/'} />
    </StudioProvider>,
  );
  return Object.assign(result, { studio, notices });
}
