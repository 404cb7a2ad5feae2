import { useQueryClient } from '@tanstack/react-query';
import { ApiError, ErrorCode } from '@tessera/sdk';
import type { EndpointOutput, MergeChoice } from '@tessera/sdk/client';
import { isShared, savedTogether, useApi, useLiveDocument, useSharedRevision } from '@tessera/sdk/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BotConfig, BotInfo } from '../api.ts';
import { BOT_SHAPE, liveBot, type LiveBot } from './live.tsx';
import { BotDiff3Way, BotMerge } from '../../shared/versions-api.ts';
import { GetBotInfo, UpdateBotInfo } from '../../shared/api.ts';

export type SaveState = 'saved' | 'pending' | 'saving' | 'conflict' | 'failed';
type Edit = Partial<Pick<BotInfo, 'name' | 'description' | 'icon_uri'>> & { config?: BotConfig };

const SAVE_AFTER_MS = 600;

/** What a merge compares of a bot. */
interface Side {
  name: string;
  description: string;
  config: BotConfig;
}
const sideOf = (b: Pick<BotInfo, 'name' | 'description' | 'config'>): Side => ({
  name: b.name,
  description: b.description,
  config: b.config,
});
/** A merge waiting for the person's choices (bot_diff_3way's answer, with what it merged). */
export type MergeAnswer = EndpointOutput<typeof BotDiff3Way> & { base: Side; ours: Side };

/**
 * The bot's draft as the editor holds it: edits apply at once on screen and are saved shortly after
 * (with the revision they were made on, so a save from an older draft is refused as a conflict).
 * Leaving the page saves what is pending; nothing typed is lost to the back arrow.
 */
export function useDraft(spaceId: string, initial: BotInfo) {
  const api = useApi();
  const qc = useQueryClient();
  const [bot, setBot] = useState(initial);
  const [state, setState] = useState<SaveState>('saved');
  const [problem, setProblem] = useState('');
  const pending = useRef<Edit>({});
  const revision = useRef(initial.revision);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<Promise<void>>(Promise.resolve());
  const conflicted = useRef(false);
  // The latest draft for edits made in the same moment (each builds on the one before).
  const current = useRef(initial);
  // The draft as last saved (or loaded): what this tab's edits start from, for a merge after a conflicting save.
  const base = useRef<Side>(sideOf(initial));
  const [merge, setMerge] = useState<MergeAnswer | null>(null);
  const startMerge = useRef(async () => {});
  // Edited together: what the others change is shown at once; one tab (the live document's saver) saves the draft.
  const live = useLiveDocument<LiveBot>(
    { kind: 'bot', id: initial.bot_id, initial: liveBot(initial), shape: BOT_SHAPE },
    (state) => {
      current.current = { ...current.current, ...state };
      setBot(current.current);
      if (saverRef.current) schedule(state);
    },
  );
  const liveRef = useRef(live.doc);
  liveRef.current = live.doc;
  const saverRef = useRef(live.saver);
  saverRef.current = live.saver;
  const sharedRef = useRef(false);
  sharedRef.current = isShared(live.status);
  useSharedRevision(live.doc, revision);

  const save = useCallback((): Promise<void> => {
    clearTimeout(timer.current);
    timer.current = undefined;
    if (conflicted.current || !Object.keys(pending.current).length) return inFlight.current;
    const edit = pending.current;
    pending.current = {};
    setState('saving');
    const run = inFlight.current.then(async () => {
      try {
        const r = await api.call(
          UpdateBotInfo,
          { space_id: spaceId, bot_id: initial.bot_id, base_revision: revision.current, ...edit },
          { handled: (e: ApiError) => e.code === ErrorCode.CONFLICT || e.detail?.field === 'name' },
        );
        revision.current = r.bot_info.revision;
        liveRef.current?.setShared('revision', r.bot_info.revision);
        base.current = { ...base.current, ...edit, config: edit.config ?? base.current.config };
        current.current = {
          ...current.current,
          revision: r.bot_info.revision,
          problems: r.bot_info.problems,
          has_unpublished_changes: r.bot_info.has_unpublished_changes,
          update_time: r.bot_info.update_time,
        };
        setBot(current.current);
        setProblem('');
        setState(Object.keys(pending.current).length ? 'pending' : 'saved');
        void qc.invalidateQueries({ queryKey: ['bots', 'list', spaceId] });
      } catch (e) {
        if (ApiError.is(e) && e.detail?.field === 'name') {
          setProblem(e.msg);
          setState('failed');
        } else if (ApiError.is(e) && e.code === ErrorCode.CONFLICT && (await savedByRoom.current())) {
          // Edited together, the newer draft was the shared bot another tab saved: saved over it.
          pending.current = { ...edit, ...pending.current };
          timer.current = setTimeout(() => void save(), 0);
        } else if (ApiError.is(e) && e.code === ErrorCode.CONFLICT) {
          conflicted.current = true;
          pending.current = { ...edit, ...pending.current };
          setProblem(e.msg);
          setState('conflict');
          await startMerge.current();
        } else {
          // Kept: the next edit (or leaving) tries again.
          pending.current = { ...edit, ...pending.current };
          setState('failed');
        }
      }
    });
    inFlight.current = run;
    return run;
  }, [api, qc, spaceId, initial.bot_id]);

  /** Whether the draft saved now came from the live document (its saving tab): its revision is then taken. */
  const savedByRoom = useRef(async (): Promise<boolean> => false);
  savedByRoom.current = async () => {
    if (!sharedRef.current) return false;
    const r = await api.call(GetBotInfo, {
      space_id: spaceId,
      bot_id: initial.bot_id,
    });
    if (!(await savedTogether(liveRef.current, r.bot_info.revision))) return false;
    revision.current = r.bot_info.revision;
    return true;
  };

  /** Takes the bot as the merge saved it: the edits made here are in it. */
  const merged = useCallback(
    (b: BotInfo) => {
      conflicted.current = false;
      pending.current = {};
      revision.current = b.revision;
      base.current = sideOf(b);
      current.current = b;
      liveRef.current?.set(liveBot(b));
      setBot(b);
      setMerge(null);
      setProblem('');
      setState('saved');
      void qc.invalidateQueries({ queryKey: ['bots', 'list', spaceId] });
    },
    [qc, spaceId],
  );
  /** Saves the merge of this tab's edits with the draft saved meanwhile, with the person's choices. */
  const saveMerge = useCallback(
    async (m: MergeAnswer, choices: Record<string, MergeChoice>) => {
      const r = await api.call(BotMerge, {
        space_id: spaceId,
        bot_id: initial.bot_id,
        base: m.base,
        ours: m.ours,
        choices,
        theirs_revision: m.theirs_revision,
      });
      merged(r.bot_info);
    },
    [api, spaceId, initial.bot_id, merged],
  );
  /** After a conflicting save: merged at once when nothing clashes, else the person picks (merge). */
  startMerge.current = async () => {
    const ours = sideOf(current.current);
    const r = await api.call(
      BotDiff3Way,
      { space_id: spaceId, bot_id: initial.bot_id, base: base.current, ours },
      { handled: () => true },
    );
    const m = { ...r, base: base.current, ours };
    if (r.conflicts.length) setMerge(m);
    else await saveMerge(m, {}).catch(() => undefined);
  };

  /** Saves an edit shortly (this tab saves: it is alone, or the one saving for everyone editing together). */
  const schedule = (edit: Edit) => {
    pending.current = { ...pending.current, ...edit };
    if (!conflicted.current) setState('pending');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), SAVE_AFTER_MS);
  };
  const change = useCallback(
    (edit: Edit) => {
      current.current = { ...current.current, ...edit, config: edit.config ?? current.current.config };
      setBot(current.current);
      liveRef.current?.set(liveBot(current.current));
      if (saverRef.current) schedule(edit);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [save],
  );
  const changeConfig = useCallback(
    (patch: Partial<BotConfig>) => change({ config: { ...current.current.config, ...patch } }),
    [change],
  );

  // Leaving (the back arrow, another page, closing the tab) saves what is pending.
  useEffect(() => {
    const flush = () => void save();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [save]);

  /** After a conflict: take the saved draft (the edits made here are dropped). */
  const reload = useCallback(async () => {
    const r = await api.call(GetBotInfo, {
      space_id: spaceId,
      bot_id: initial.bot_id,
    });
    conflicted.current = false;
    pending.current = {};
    revision.current = r.bot_info.revision;
    base.current = sideOf(r.bot_info);
    current.current = r.bot_info;
    liveRef.current?.set(liveBot(r.bot_info));
    setBot(r.bot_info);
    setMerge(null);
    setProblem('');
    setState('saved');
  }, [api, spaceId, initial.bot_id]);

  /** After a publish or revert: what the server now says. */
  const replace = useCallback((b: BotInfo) => {
    revision.current = b.revision;
    base.current = sideOf(b);
    current.current = b;
    liveRef.current?.set(liveBot(b));
    setBot(b);
  }, []);

  return { bot, state, problem, change, changeConfig, save, reload, replace, merge, saveMerge, live };
}
