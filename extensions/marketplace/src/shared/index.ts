// @tessera/ext-marketplace/shared: the marketplace's numbers (spec 000's product review status), and the point where
// other extensions add actions to a product's page.
import { defineRegistryPoint } from '@tessera/sdk';
import type { ComponentType } from 'react';
export const ReviewStatus = { Default: 0, Pending: 1, Approved: 2, Rejected: 3, Abandoned: 4 } as const;
export const SortType = { Latest: 'latest', Popular: 'popular', Favorites: 'favorites' } as const;

/** An action beside a product's favorite, share and duplicate buttons (report it ...), given the product's id and name. */
export interface ProductAction {
  key: string;
  component: ComponentType<{ productId: string; name: string }>;
  order?: number;
}
export const ProductActions = defineRegistryPoint<ProductAction>({
  id: 'marketplace.productActions',
  owner: 'marketplace',
  description: "Buttons other extensions add to a marketplace product's page.",
  key: (a) => a.key,
});
