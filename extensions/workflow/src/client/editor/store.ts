// The workflow editor's state apart from the draft (draft.ts holds the canvas, undo and saving): what is selected,
// the sizes the canvas measured, the server's validation of the canvas, which side panel is open and whether a run
// was refused for problems; with the commands that change them. Views read a part with `useEditor(store, pick)` and
// change it through the store's methods, never through setters of their own, so a panel, the toolbar and the canvas
// see one state (the pattern of FlowGram's and tldraw's editors: state in a store, views thin).
import type { RequestClient } from '@tessera/sdk/client';
import type { Canvas, FieldDecl } from '@tessera/workflow-sdk';
import { useSyncExternalStore } from 'react';
import { ValidateTree } from '../../shared/api.ts';
import type { NodeProblem } from './NodePanel.tsx';

export interface Size {
  width: number;
  height: number;
}

export interface EditorState {
  /** Selected nodes and notes (`note:<id>`). */
  readonly selected: ReadonlySet<string>;
  /** Selected links (by `linkId`). */
  readonly selectedEdges: ReadonlySet<string>;
  /** Sizes the canvas measured: nodes are rebuilt from the canvas on every change, and a node without its measured
   * size is hidden until it is measured again. */
  readonly sizes: Readonly<Record<string, Size>>;
  /** The server's validation of the canvas as it is, by node. */
  readonly problems: Readonly<Record<string, NodeProblem[]>>;
  /** What each node outputs (and gives its body), as the last validation computed it. */
  readonly computed: {
    readonly outputs: Readonly<Record<string, FieldDecl[]>>;
    readonly locals: Readonly<Record<string, FieldDecl[]>>;
  };
  /** The side panel open: the editor's own ('problems', 'versions', 'run') or an extension's (`panel:<key>`). */
  readonly side: string | null;
  /** A test run was refused because the canvas has errors: the dialog that lists them is open. */
  readonly brokenRun: boolean;
}

const NONE: ReadonlySet<string> = new Set();

export class EditorStore {
  #state: EditorState;
  readonly #listeners = new Set<() => void>();

  constructor(side: string | null = null) {
    this.#state = {
      selected: NONE,
      selectedEdges: NONE,
      sizes: {},
      problems: {},
      computed: { outputs: {}, locals: {} },
      side,
      brokenRun: false,
    };
  }

  get state(): EditorState {
    return this.#state;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #set(patch: Partial<EditorState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const l of this.#listeners) l();
  }

  /** Selects these nodes (and notes) alone. */
  select(ids: Iterable<string>): void {
    this.#set({ selected: new Set(ids) });
  }

  /** Selects these links alone (nodes stay as they are). */
  selectEdges(ids: Iterable<string>): void {
    this.#set({ selectedEdges: new Set(ids) });
  }

  /** Selects one link and no node (a click on a link drawn in the link layer). */
  selectLink(id: string): void {
    this.#set({ selected: NONE, selectedEdges: new Set([id]) });
  }

  /** Keeps the sizes the canvas measured. */
  measured(sizes: Record<string, Size>): void {
    if (Object.keys(sizes).length) this.#set({ sizes: { ...this.#state.sizes, ...sizes } });
  }

  /** Asks the server to validate the canvas (the saved draft when no canvas is given) and keeps what it answers. */
  async validate(api: RequestClient, spaceId: string, workflowId: string, schema?: Canvas): Promise<void> {
    const r = await api.call(
      ValidateTree,
      { space_id: spaceId, workflow_id: workflowId, ...(schema ? { schema } : {}) },
      { handled: () => true },
    );
    const problems: Record<string, NodeProblem[]> = {};
    for (const e of r.errors)
      if (e.node_id) (problems[e.node_id] ??= []).push({ field: e.field, message: e.message, level: e.level });
    this.#set({ problems, computed: { outputs: r.node_outputs ?? {}, locals: r.node_locals ?? {} } });
  }

  /** Opens a side panel (null closes the one open). */
  openSide(side: string | null): void {
    this.#set({ side });
  }

  /** Opens this side panel, or closes it when it is the one open (the toolbar's buttons). */
  toggleSide(side: string): void {
    this.#set({ side: this.#state.side === side ? null : side });
  }

  /** A run refused for problems: the dialog that lists them opens. */
  refuseRun(): void {
    this.#set({ brokenRun: true });
  }

  /** The refused run's dialog closes; `showProblems` opens the problems panel instead, nothing selected. */
  closeRefusedRun(showProblems = false): void {
    this.#set(showProblems ? { brokenRun: false, selected: NONE, side: 'problems' } : { brokenRun: false });
  }
}

/** A part of the editor's state, drawn again when it changes. `pick` returns a part of the state, not a new object. */
export function useEditor<T>(store: EditorStore, pick: (state: EditorState) => T): T {
  return useSyncExternalStore(store.subscribe, () => pick(store.state));
}
