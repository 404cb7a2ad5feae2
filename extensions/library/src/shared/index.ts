// @tessera/ext-library/shared: resources leaving and entering spaces, for other extensions (marketplace,
// templates, projects).
import { defineService, type ResourceBundle } from '@tessera/sdk';

export type { ResourceView } from './api.ts';

export interface Library {
  /** A resource with what it brings along, as a bundle (refuses kinds that cannot leave their space). */
  exportBundle(kind: string, id: string, spaceId: string): Promise<ResourceBundle>;
  /**
   * Creates the bundle's resources in a space (what they bring along first) and answers the root's new id;
   * refuses, listing them, when the studio lacks what the bundle needs.
   */
  importBundle(
    bundle: unknown,
    opts: { spaceId: string; userId: string; name?: string },
  ): Promise<{ kind: string; id: string }>;
}
export const LibraryService = defineService<Library>({
  id: 'library.library',
  owner: 'library',
  description: 'Export and import resources as bundles.',
});
