// The diff table and merge dialog, loaded when first drawn (pages show them after a conflicting save or on asking
// for a comparison), and the merge's types (the code is `@tessera/sdk/merge`).
import { lazyView } from './lazy.tsx';
import type { DiffTableProps, MergeDialogProps } from './merge-views.tsx';

export type { DiffEntry, JsonPath, MergeChoice, MergeConflict, MergeResult } from '../merge.ts';
export type { DiffTableProps, MergeDialogProps, MergeDialogTexts } from './merge-views.tsx';

export const DiffTable = lazyView<DiffTableProps>(() => import('./merge-views.tsx').then((m) => m.DiffTable));
export const MergeDialog = lazyView<MergeDialogProps>(() => import('./merge-views.tsx').then((m) => m.MergeDialog), {
  fallback: null,
});
