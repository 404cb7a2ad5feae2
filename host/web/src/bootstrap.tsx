import { describeError } from '@tessera/sdk';
import './csp.ts';
// Arco renders toasts with createRoot from react-dom/client under React 19.
import '@arco-design/web-react/es/_util/react-19-adapter';
import './styles.css';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ExtensionCandidate, ExtensionDefinition } from '@tessera/core';
import type { ClientContext } from '@tessera/sdk/client';
import { createRoot } from 'react-dom/client';
import { builtinClients } from './generated/extensions.ts';
import { createStudio, storedLanguage, type Studio } from './runtime.ts';
import { Shell } from './shell/Shell.tsx';
import { StudioProvider } from './shell/StudioProvider.tsx';
import { showErrorNotice } from './shell/notice.tsx';

interface ExtensionInfo {
  id: string;
  version: string;
  state: string;
  requires?: string[];
  optional?: string[];
  client: null | { type: 'builtin' } | { type: 'remote'; entry: string; remoteName: string };
}

function definitionOf(mod: unknown): ExtensionDefinition<ClientContext> {
  const m = mod as { default?: unknown };
  const def = (m && typeof m === 'object' && 'default' in m ? m.default : m) as ExtensionDefinition<ClientContext>;
  if (!def || typeof def.id !== 'string')
    throw new Error('the client module must export default defineExtension({...}) from @tessera/sdk/client');
  return def;
}

function candidates(list: ExtensionInfo[]): ExtensionCandidate<ClientContext>[] {
  const out: ExtensionCandidate<ClientContext>[] = [];
  for (const e of list) {
    if (e.state !== 'started' || !e.client) continue;
    // The server started what it requires; here only the requirements that have a client half order the loading
    // (a server-only dependency, such as a storage extension, has nothing to load in the page).
    const withClient = (ids: string[] | undefined) =>
      (ids ?? []).filter((id) => list.some((x) => x.id === id && x.client));
    const manifest = {
      id: e.id,
      version: e.version,
      requires: withClient(e.requires),
      optional: withClient(e.optional),
    };
    const client = e.client;
    if (client.type === 'builtin') {
      const load = builtinClients[e.id];
      if (load) out.push({ manifest, source: 'builtin', load: async () => definitionOf(await load()) });
    } else {
      out.push({
        manifest,
        source: 'runtime',
        load: async () => {
          registerRemotes([{ name: client.remoteName, entry: client.entry }]);
          return definitionOf(await loadRemote(`${client.remoteName}/client`));
        },
      });
    }
  }
  return out;
}

async function main() {
  const root = createRoot(document.getElementById('root')!);
  let info: { platformName: string; extensions: ExtensionInfo[] };
  try {
    const res = await fetch('/api/extensions', { headers: { accept: 'application/json' } });
    info = (await res.json()).data;
  } catch (e) {
    root.render(<div className="tessera-boot-error">The studio server could not be reached: {describeError(e)}</div>);
    return;
  }
  document.title = info.platformName;
  let studio: Studio | undefined;
  studio = await createStudio({
    candidates: candidates(info.extensions),
    platformName: info.platformName,
    language: storedLanguage(),
    notify: (err) => studio && showErrorNotice(err, studio.i18n),
  });
  (window as unknown as { __tessera?: Studio }).__tessera = studio;
  root.render(
    <StudioProvider studio={studio}>
      <Shell />
    </StudioProvider>,
  );
}

void main();
