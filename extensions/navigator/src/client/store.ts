// The palette's open state, shared by the header's search button, the Ctrl/⌘-K listener and the dialog.
import { useSyncExternalStore } from 'react';

let open = false;
/** How many headers with the search button are drawn: the palette answers Ctrl/⌘-K only on such pages (not on sign-in). */
let headers = 0;
const listeners = new Set<() => void>();
const set = (v: boolean) => {
  if (open === v) return;
  open = v;
  for (const l of listeners) l();
};

export const palette = {
  open: () => set(true),
  close: () => set(false),
  toggle: () => set(!open && headers > 0),
  get: () => open,
  /** The search button calls it when drawn; the returned function when gone. */
  available(): () => void {
    headers++;
    return () => {
      headers--;
      if (headers === 0) set(false);
    };
  },
  subscribe(fn: () => void) {
    listeners.add(fn);
    return () => void listeners.delete(fn);
  },
};

export function usePaletteOpen(): boolean {
  return useSyncExternalStore(palette.subscribe, palette.get, palette.get);
}

/**
 * How well a text matches what was typed (higher is better; 0: not at all): the whole text, its start, a word's
 * start, anywhere; case and accents ignored.
 */
export function matchScore(text: string, query: string): number {
  const norm = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
  const t = norm(text);
  const q = norm(query);
  if (!q) return 1;
  if (t === q) return 4;
  if (t.startsWith(q)) return 3;
  const at = t.indexOf(q);
  if (at < 0) return 0;
  return /[\s\-_/·(]/.test(t[at - 1] ?? '') ? 2 : 1;
}
