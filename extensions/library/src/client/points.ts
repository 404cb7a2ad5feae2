// @tessera/ext-library/client: what other extensions add to the library page.
import { defineRegistryPoint } from '@tessera/sdk';
import type { ComponentType } from 'react';
import { z } from 'zod';

/** A resource as the library page lists it. */
export interface LibraryItem {
  res_type: string;
  res_id: string;
  name: string;
  desc: string;
  creator_id: string;
  creator_name: string;
  edit_time: number;
  published?: boolean;
  folder_id: string;
}

/**
 * An action on a resource in the library's row menu ("List in marketplace" ...): its label (a key in the
 * owner's namespace), which resources it applies to, and the dialog it opens.
 */
export interface LibraryAction {
  key: string;
  label: string;
  order?: number;
  /** Whether it applies (by kind and what the kind can do: can_export ...). */
  applies?(item: LibraryItem, caps: { can_export: boolean; can_import: boolean }): boolean;
  Dialog: ComponentType<{ spaceId: string; item: LibraryItem; onClose(): void }>;
}

export const LibraryActions = defineRegistryPoint<LibraryAction>({
  id: 'library.actions',
  owner: 'library',
  description: "Actions on a resource in the library's row menu, each with its dialog.",
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9-]*$/),
    label: z.string().min(1),
    Dialog: z.custom((v) => typeof v === 'function' || (typeof v === 'object' && v !== null)),
  }),
  key: (a) => a.key,
});
