// The command palette's search of the current space's resources (every kind), through the library's list.
import {
  itemPathOf,
  type RequestClient,
  type ResourceKind,
  type SearchProvider,
  type SearchResult,
} from '@tessera/sdk/client';
import type { RegistryView } from '@tessera/core';
import type { ResourceView } from '../shared/api.ts';

/** How many resources one query shows. */
const LIMIT = 8;

export function resourceSearch(
  api: RequestClient,
  kinds: RegistryView<ResourceKind>,
  spaceId: () => string | null,
): SearchProvider {
  return {
    key: 'library-resources',
    label: 'searchSection',
    order: 10,
    async search(query, signal): Promise<SearchResult[]> {
      const space = spaceId();
      if (!space) return [];
      const r = await api.post<{ resource_list: ResourceView[] }>(
        '/api/resource/library_resource_list',
        { space_id: space, name: query, size: LIMIT },
        { signal, handled: () => true } /* the palette shows the failure in its section */,
      );
      return r.resource_list.flatMap((i) => {
        const kind = kinds.get(i.res_type);
        return kind
          ? [
              {
                key: `${i.res_type}:${i.res_id}`,
                title: i.name,
                description: i.desc || undefined,
                kind: i.res_type,
                path: itemPathOf(kind, i.res_id, space),
              },
            ]
          : [];
      });
    },
  };
}
