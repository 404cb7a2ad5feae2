// Editing together, as an editor sees it: a live document of the resource it edits (its state as JSON), the other
// people who have it open, and what they select and point at. An extension provides it (the `LiveDocuments` point,
// which the collab extension fills with Yjs); without one an editor works alone, as before.
import { defineRegistryPoint } from '@tessera/core';
import { Avatar, Tooltip } from '@arco-design/web-react';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { z } from 'zod';
import { useRegistry } from './context.tsx';

/** Someone else with the document open (one per browser tab). */
export interface LivePeer {
  /** Their tab's id in the document. */
  clientId: number;
  userId: string;
  name: string;
  /** Their colour (the same for a person in every tab and every browser). */
  color: string;
  /** They may look but not change it (a collaborators list without them). */
  readOnly: boolean;
  /** What they have selected, in the editor's ids (node ids, field names). */
  selection: string[];
  /** Their pointer, in the editor's coordinates (a canvas's flow position), while it is over the editor. */
  cursor?: { x: number; y: number };
}

/** connecting: not yet in step with the others; live: in step; offline: edits are kept and merge on return. */
export type LiveStatus = 'connecting' | 'live' | 'offline' | 'closed';

/**
 * How the state's parts are kept apart so that people's edits merge: top-level arrays of objects named in
 * `collections` are kept by their items' keys (two people adding nodes both keep theirs; one moving a node and another
 * renaming it both apply), and objects merge field by field `depth` levels deep (below, a value is replaced whole).
 */
export interface LiveShape {
  collections?: Record<string, (item: any) => string>;
  depth?: number;
  /** Keys whose string values people type in together (a prompt, code): merged character by character. */
  texts?: string[];
}

export type LiveEvent<T> =
  /** The state changed by someone else, or by this person's undo or redo. */
  | { type: 'state'; state: T; origin: 'remote' | 'undo' }
  | { type: 'status'; status: LiveStatus; reason?: string }
  | { type: 'peers'; peers: LivePeer[] }
  /** A fact shared beside the state changed (`setShared`, by anyone). */
  | { type: 'shared'; key: string; value: unknown };

export interface LiveDocument<T> {
  readonly status: LiveStatus;
  readonly peers: LivePeer[];
  /** This person's change: the state as it is now (what differs from the shared state is sent). */
  set(next: T): void;
  /** Undoes this person's last change (not the others'); false when there is none. */
  undo(): boolean;
  redo(): boolean;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /**
   * Whether this tab saves the shared state: one tab at a time (the first of those who may change it), so that the
   * draft is saved once, not by everyone; true while not in step with others (alone, offline).
   */
  readonly saver: boolean;
  /** Small facts shared beside the state (the draft's revision as last saved): not part of it, never undone. */
  getShared(key: string): unknown;
  setShared(key: string, value: unknown): void;
  /** Where this person is: what they selected, their pointer (null: away from the editor). */
  setPresence(presence: { selection?: string[]; cursor?: { x: number; y: number } | null }): void;
  subscribe(listener: (event: LiveEvent<T>) => void): () => void;
  close(): void;
}

export interface LiveOpenOptions<T> {
  /** The resource's kind and id ('workflow', its id): members of its space may open it. */
  kind: string;
  id: string;
  /** The state as loaded: it seeds the document, and when nobody else has it open it is what the document becomes. */
  initial: T;
  shape: LiveShape;
}

export interface LiveDocumentProvider {
  key: string;
  open<T>(options: LiveOpenOptions<T>): LiveDocument<T>;
}

/** Who provides live documents (the first entry is used). */
export const LiveDocuments = defineRegistryPoint<LiveDocumentProvider>({
  id: 'client.liveDocuments',
  owner: 'host',
  description: 'Live documents for editing together (presence, selections, merged edits); the first entry is used.',
  schema: z.object({
    key: z.string().min(1),
    open: z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function', 'must be a function'),
  }),
  key: (p) => p.key,
});

/** The editor's state is the one shared with the others (in step, or offline with edits that will merge). */
export function isShared(status: LiveStatus | undefined): boolean {
  return status === 'live' || status === 'offline';
}

export interface UseLiveDocument<T> {
  /** Undefined when no extension provides live documents (or `enabled` is false). */
  doc: LiveDocument<T> | undefined;
  status: LiveStatus | undefined;
  peers: LivePeer[];
  /** This tab saves the shared state (see `LiveDocument.saver`); true without a live document. */
  saver: boolean;
}

/**
 * The live document of what an editor edits, open while the editor is: `onState` is called with the state others
 * (or this person's undo) made, which the editor shows without saving it again as its own edit.
 */
export function useLiveDocument<T>(
  options: LiveOpenOptions<T> & { enabled?: boolean },
  onState: (state: T, origin: 'remote' | 'undo') => void,
): UseLiveDocument<T> {
  const provider = useRegistry(LiveDocuments)[0];
  const [doc, setDoc] = useState<LiveDocument<T>>();
  const [status, setStatus] = useState<LiveStatus>();
  const [peers, setPeers] = useState<LivePeer[]>([]);
  const [saver, setSaver] = useState(true);
  const latest = useRef({ options, onState });
  latest.current = { options, onState };
  const enabled = options.enabled !== false && !!provider;
  useEffect(() => {
    if (!enabled) return;
    const d = provider.open(latest.current.options);
    setDoc(d);
    setStatus(d.status);
    setPeers(d.peers);
    setSaver(d.saver);
    const off = d.subscribe((e) => {
      if (e.type === 'state') latest.current.onState(e.state, e.origin);
      else if (e.type === 'status') setStatus(e.status);
      else if (e.type === 'peers') setPeers(e.peers);
      if (e.type === 'status' || e.type === 'peers') setSaver(d.saver);
    });
    return () => {
      off();
      d.close();
      setDoc(undefined);
      setStatus(undefined);
      setPeers([]);
      setSaver(true);
    };
  }, [enabled, provider, options.kind, options.id]);
  return { doc, status, peers, saver };
}

/**
 * Keeps `revision` (the draft's revision this tab saves from) at the highest one saved from the live document, so that
 * the tab that takes over saving for everyone saves from the right one (`setShared('revision', n)` after each save).
 */
export function useSharedRevision(doc: LiveDocument<unknown> | undefined, revision: { current: number }): void {
  useEffect(
    () =>
      doc?.subscribe((e) => {
        if (e.type === 'shared' && e.key === 'revision' && typeof e.value === 'number' && e.value > revision.current)
          revision.current = e.value;
      }),
    [doc, revision],
  );
}

/**
 * Whether a revision of the draft was saved from the live document (by whichever tab saved for everyone): true once
 * its shared `revision` reaches `revision` (it may arrive a moment after the save's answer), false after `waitMs`.
 * A save refused for an older draft then retries over it; a revision saved elsewhere is a real conflict.
 */
export function savedTogether(
  doc: LiveDocument<unknown> | undefined,
  revision: number,
  waitMs = 3000,
): Promise<boolean> {
  const reached = () => Number(doc?.getShared('revision') ?? 0) >= revision;
  if (!doc || reached()) return Promise.resolve(!!doc);
  return new Promise((resolve) => {
    const done = (v: boolean) => {
      clearTimeout(timer);
      off();
      resolve(v);
    };
    const timer = setTimeout(() => done(false), waitMs);
    const off = doc.subscribe((e) => {
      if (e.type === 'shared' && reached()) done(true);
    });
  });
}

/** The peers' avatars (one per person, however many tabs), each with their name; nothing when alone. */
export function PresenceAvatars({ peers, style }: { peers: LivePeer[]; style?: CSSProperties }) {
  const people = [...new Map(peers.map((p) => [p.userId, p])).values()];
  if (!people.length) return null;
  return (
    <Avatar.Group size={26} maxCount={5} style={style} data-testid="presence">
      {people.map((p) => (
        <Tooltip key={p.userId} content={p.name}>
          <Avatar
            aria-label={p.name}
            data-user={p.userId}
            style={{ backgroundColor: p.color, outline: p.readOnly ? '1px dashed var(--color-border-3)' : undefined }}
          >
            {initials(p.name)}
          </Avatar>
        </Tooltip>
      ))}
    </Avatar.Group>
  );
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  // One character for names written without spaces (张三), the first letters of two words otherwise.
  return words.length > 1 ? (words[0][0] + words[1][0]).toUpperCase() : [...words[0]][0].toUpperCase();
}

/** A person's colour from their id: the same everywhere, readable on white and on the dark theme. */
export function colorOf(userId: string): string {
  let h = 2166136261;
  for (let i = 0; i < userId.length; i++) h = Math.imul(h ^ userId.charCodeAt(i), 16777619);
  return `hsl(${(h >>> 0) % 360} 65% 45%)`;
}
