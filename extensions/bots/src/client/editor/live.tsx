// Editing a bot together: its name, description, icon and settings as a live document (settings merge field by
// field), the others' avatars in the header and the field each is in outlined in their colour.
import { PresenceAvatars, type LiveDocument, type LivePeer, type LiveShape } from '@tessera/sdk/client';
import { useEffect, type RefObject } from 'react';
import type { BotConfig, BotInfo } from '../api.ts';

/** What of a bot is edited together. */
export interface LiveBot {
  name: string;
  description: string;
  icon_uri: string;
  config: BotConfig;
}
/** Settings merge field by field; what is typed at length (the persona, the opening) character by character. */
export const BOT_SHAPE: LiveShape = { depth: 2, texts: ['description', 'prompt', 'prologue'] };
export const liveBot = (b: Pick<BotInfo, 'name' | 'description' | 'icon_uri' | 'config'>): LiveBot => ({
  name: b.name,
  description: b.description,
  icon_uri: b.icon_uri,
  config: b.config,
});

/** Field names may be only these characters (they go into a CSS selector). */
const FIELD = /^[\w-]{1,80}$/;

/** Tells the others which field this person is in: the focused element's test id inside the editor. */
export function useFieldPresence(doc: LiveDocument<LiveBot> | undefined, root: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = root.current;
    if (!doc || !el) return;
    const field = (t: EventTarget | null) =>
      (t as HTMLElement | null)?.closest?.('[data-testid]')?.getAttribute('data-testid') ?? '';
    const onIn = (e: FocusEvent) => {
      const f = field(e.target);
      doc.setPresence({ selection: FIELD.test(f) ? [f] : [] });
    };
    const onOut = () => doc.setPresence({ selection: [] });
    el.addEventListener('focusin', onIn);
    el.addEventListener('focusout', onOut);
    return () => {
      el.removeEventListener('focusin', onIn);
      el.removeEventListener('focusout', onOut);
    };
  }, [doc, root]);
}

/** The others in the header, and the fields they are in outlined in their colours. */
export function BotPresence({ peers }: { peers: LivePeer[] }) {
  const rules = peers
    .flatMap((p) => p.selection.filter((f) => FIELD.test(f)).map((f) => ({ f, color: p.color })))
    .map(({ f, color }) => `.tessera-bot-editor [data-testid="${f}"]{outline:2px solid ${color};outline-offset:1px}`);
  return (
    <>
      <PresenceAvatars peers={peers} />
      {rules.length > 0 && <style data-testid="peer-fields">{rules.join('\n')}</style>}
    </>
  );
}
