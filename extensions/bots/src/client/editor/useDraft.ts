import { useQueryClient } from '@tanstack/react-query';
import { ApiError, ErrorCode } from '@tessera/sdk';
import { useApi } from '@tessera/sdk/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BotConfig, BotInfo } from '../api.ts';

export type SaveState = 'saved' | 'pending' | 'saving' | 'conflict' | 'failed';
type Edit = Partial<Pick<BotInfo, 'name' | 'description' | 'icon_uri'>> & { config?: BotConfig };

const SAVE_AFTER_MS = 600;

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

  const save = useCallback((): Promise<void> => {
    clearTimeout(timer.current);
    timer.current = undefined;
    if (conflicted.current || !Object.keys(pending.current).length) return inFlight.current;
    const edit = pending.current;
    pending.current = {};
    setState('saving');
    const run = inFlight.current.then(async () => {
      try {
        const r = await api.post<{ bot_info: BotInfo }>(
          '/api/playground_api/draftbot/update_draft_bot_info',
          { space_id: spaceId, bot_id: initial.bot_id, base_revision: revision.current, ...edit },
          { handled: (e: ApiError) => e.code === ErrorCode.CONFLICT || e.detail?.field === 'name' },
        );
        revision.current = r.bot_info.revision;
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
        } else if (ApiError.is(e) && e.code === ErrorCode.CONFLICT) {
          conflicted.current = true;
          pending.current = { ...edit, ...pending.current };
          setProblem(e.msg);
          setState('conflict');
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

  const change = useCallback(
    (edit: Edit) => {
      current.current = { ...current.current, ...edit, config: edit.config ?? current.current.config };
      setBot(current.current);
      pending.current = { ...pending.current, ...edit };
      if (!conflicted.current) setState('pending');
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void save(), SAVE_AFTER_MS);
    },
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
    const r = await api.post<{ bot_info: BotInfo }>('/api/playground_api/draftbot/get_draft_bot_info', {
      space_id: spaceId,
      bot_id: initial.bot_id,
    });
    conflicted.current = false;
    pending.current = {};
    revision.current = r.bot_info.revision;
    current.current = r.bot_info;
    setBot(r.bot_info);
    setProblem('');
    setState('saved');
  }, [api, spaceId, initial.bot_id]);

  /** After a publish or revert: what the server now says. */
  const replace = useCallback((b: BotInfo) => {
    revision.current = b.revision;
    current.current = b;
    setBot(b);
  }, []);

  return { bot, state, problem, change, changeConfig, save, reload, replace };
}
