// The workflow's draft as the editor holds it: the canvas, undo and redo, saving a moment after each change (with the
// revision it was made on: a save from an older draft is merged, asking only about conflicts), leaving saves what is
// pending; edited together (a live document), the others' edits shown, undo of one's own, one tab saving.
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@tessera/sdk';
import { isShared, savedTogether, toast, useApi, useSharedRevision, type MergeConflict } from '@tessera/sdk/client';
import type { Canvas } from '@tessera/workflow-sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveCanvas } from './live.tsx';
import { History } from './model.ts';
import type { SaveState } from './SaveState.tsx';
import { GetCanvas, Merge3Way, SaveDraft } from '../../shared/api.ts';

const SAVE_DELAY_MS = 800;

/** What /merge_3way answers. */
export interface MergeAnswer {
  merged: Canvas;
  conflicts: (MergeConflict & { key: string })[];
  dropped: string[];
  theirs_revision: number;
}

/** The draft as loaded. */
export interface LoadedDraft {
  canvas: Canvas;
  revision: number;
  name: string;
}

export function useCanvasDraft({
  spaceId,
  workflowId,
  initial,
  readOnly,
}: {
  spaceId: string;
  workflowId: string;
  initial: LoadedDraft;
  /** Shown, not edited (a phone): no live document. */
  readOnly: boolean;
}) {
  const { t } = useTranslation('workflow');
  const api = useApi();
  const qc = useQueryClient();
  const [canvas, setCanvas] = useState<Canvas>(initial.canvas);
  const [save, setSave] = useState<SaveState>('saved');
  const revision = useRef(initial.revision);
  // The canvas as last saved (or loaded): what this tab's edits start from, for a merge after a conflicting save.
  const baseCanvas = useRef(initial.canvas);
  const dirty = useRef(false);

  const latest = useRef(canvas);
  latest.current = canvas;
  const history = useRef(new History());
  const [, setHistoryTick] = useState(0);
  /** Applies a change to the canvas (undoable; `burst` groups a drag or typing into one step). */
  /** Set while the node panel holds edits not yet on the canvas; calling it applies them. */
  const panelPending = useRef<(() => void) | null>(null);
  /**
   * The draft now differs from what was saved: this tab saves it in a moment. Edited together, one tab saves the
   * shared canvas (whoever made the change); the others' edits reach it live.
   */
  const markDirty = useCallback(() => {
    if (!saverRef.current) return;
    dirty.current = true;
    setSave((s) => (s === 'conflict' ? s : 'dirty'));
  }, []);
  const change = useCallback(
    (fn: (c: Canvas) => Canvas, burst = '') => {
      history.current.record(latest.current, burst);
      // latest is the canvas with every change so far (set here, in travel and on render): computed now,
      // so a save right after (leaving the editor) has it.
      const next = fn(latest.current);
      latest.current = next;
      liveRef.current?.set(next);
      setCanvas(next);
      markDirty();
      setHistoryTick((x) => x + 1);
    },
    [markDirty],
  );
  const travel = useCallback(
    (to: Canvas | undefined) => {
      if (!to) return;
      latest.current = to;
      liveRef.current?.set(to);
      setCanvas(to);
      markDirty();
      setHistoryTick((x) => x + 1);
    },
    [markDirty],
  );
  // Edited together, undo takes back this person's own changes (the live document's), not the others'.
  const undo = useCallback(() => {
    panelPending.current?.();
    if (sharedRef.current) liveRef.current?.undo();
    else travel(history.current.undo(latest.current));
  }, [travel]);
  const redo = useCallback(() => {
    panelPending.current?.();
    if (sharedRef.current) liveRef.current?.redo();
    else travel(history.current.redo(latest.current));
  }, [travel]);
  // The canvas as others edit it (and this person's undo there): shown; saved by whoever changed it.
  const live = useLiveCanvas(workflowId, initial.canvas, !readOnly, (next) => {
    latest.current = next;
    setCanvas(next);
    markDirty();
    setHistoryTick((x) => x + 1);
  });
  const liveRef = useRef(live.doc);
  liveRef.current = live.doc;
  const shared = isShared(live.status);
  const sharedRef = useRef(shared);
  sharedRef.current = shared;
  // This tab's mark in the ids of nodes it adds while others edit the canvas too (two adding a node of one type at
  // once must not make the same id).
  const [salt] = useState(() => Math.random().toString(36).slice(2, 6));
  const together = useRef(false);
  together.current = shared && live.peers.length > 0;
  const saverRef = useRef(live.saver);
  saverRef.current = live.saver;
  // The revision the saving tab last saved; and when this tab takes over the saving (the one saving left), it saves
  // what it holds.
  useSharedRevision(live.doc, revision);
  const wasSaver = useRef(true);
  useEffect(() => {
    if (live.saver && !wasSaver.current) markDirty();
    wasSaver.current = live.saver;
  }, [live.saver, markDirty]);
  // Saves the draft a moment after the last change.
  const saving = useRef(false);
  const persist = useCallback(
    async (c: Canvas, base: number) => {
      saving.current = true;
      setSave('saving');
      dirty.current = false;
      try {
        const r = await api.call(
          SaveDraft,
          { space_id: spaceId, workflow_id: workflowId, schema: c, base_revision: base },
          { handled: (e) => e.status === 409 },
        );
        revision.current = r.revision;
        // Edited together, the others save from this revision when they take over saving.
        liveRef.current?.setShared('revision', r.revision);
        baseCanvas.current = c;
        setSave(dirty.current ? 'dirty' : 'saved');
      } catch (e) {
        dirty.current = true;
        const conflicted = e instanceof ApiError && e.status === 409;
        // Edited together, the newer draft may be the shared canvas another tab saved: saved over, not merged.
        const over = conflicted && sharedRef.current ? await savedByRoom() : undefined;
        if (over !== undefined) {
          saving.current = false;
          return persist(latest.current, over);
        }
        setSave(conflicted ? 'conflict' : 'error');
        if (conflicted) void mergeRef.current();
      } finally {
        saving.current = false;
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api, spaceId, workflowId],
  );
  /** The draft's revision now, when the live canvas's saving tab saved it (else undefined: saved elsewhere). */
  const savedByRoom = async (): Promise<number | undefined> => {
    const r = await api.call(GetCanvas, {
      space_id: spaceId,
      workflow_id: workflowId,
    });
    return (await savedTogether(liveRef.current, r.workflow.revision)) ? r.workflow.revision : undefined;
  };
  useEffect(() => {
    if (save !== 'dirty') return;
    const timer = setTimeout(() => {
      if (!saving.current) void persist(canvas, revision.current);
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [canvas, save, persist]);
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirty.current || panelPending.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  // Leaving the editor inside the studio (a link, the browser's back) saves what is pending.
  useEffect(
    () => () => {
      panelPending.current?.();
      if (dirty.current && !saving.current)
        void api.call(
          SaveDraft,
          {
            space_id: spaceId,
            workflow_id: workflowId,
            schema: latest.current,
            base_revision: revision.current,
          },
          { handled: () => true },
        );
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  /** Saves what is pending; false when it could not be saved (a conflict). */
  const flush = async () => {
    panelPending.current?.();
    if (dirty.current || saving.current) await persist(latest.current, revision.current);
    return !dirty.current;
  };
  const reload = async () => {
    const r = await api.call(GetCanvas, {
      space_id: spaceId,
      workflow_id: workflowId,
    });
    const loadedCanvas = JSON.parse(r.workflow.schema_json) as Canvas;
    latest.current = loadedCanvas;
    // A restored version is everyone's canvas now.
    liveRef.current?.set(loadedCanvas);
    setCanvas(loadedCanvas);
    revision.current = r.workflow.revision;
    dirty.current = false;
    setSave('saved');
    await qc.invalidateQueries({ queryKey: ['workflow', 'meta', workflowId] });
  };

  // After a conflicting save: what this tab changed merged with the draft saved meanwhile. Without conflicts the
  // merge is saved at once; with some, the person picks in the merge dialog.
  const [merging, setMerging] = useState<MergeAnswer | null>(null);
  const takeMerged = async (merged: Canvas, theirsRevision: number, dropped: string[]) => {
    setMerging(null);
    latest.current = merged;
    liveRef.current?.set(merged);
    setCanvas(merged);
    if (dropped.length) toast.info(t('editor.mergeDropped', { count: dropped.length }));
    await persist(merged, theirsRevision);
  };
  const mergeRef = useRef(async () => {});
  mergeRef.current = async () => {
    const r = await api.call(Merge3Way, {
      space_id: spaceId,
      workflow_id: workflowId,
      base: baseCanvas.current,
      ours: latest.current,
    });
    if (r.conflicts.length) return setMerging(r);
    toast.success(t('editor.merged'));
    await takeMerged(r.merged, r.theirs_revision, r.dropped);
  };

  return {
    canvas,
    /** The canvas with every change so far (ahead of `canvas` until the next render). */
    latest,
    change,
    undo,
    redo,
    canUndo: isShared(live.status) ? !!live.doc?.canUndo : history.current.canUndo,
    canRedo: isShared(live.status) ? !!live.doc?.canRedo : history.current.canRedo,
    /** Set while the node panel holds edits not yet on the canvas; calling it applies them. */
    panelPending,
    save,
    flush,
    reload,
    merging,
    setMerging,
    takeMerged,
    live,
    /** Others edit the canvas too: the nodes this tab adds take `salt` in their ids. */
    together,
    salt,
  };
}
