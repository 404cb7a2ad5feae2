// @tessera/ext-marketplace/shared: the marketplace's numbers (spec 000's product review status).
export const ReviewStatus = { Default: 0, Pending: 1, Approved: 2, Rejected: 3, Abandoned: 4 } as const;
export const SortType = { Latest: 'latest', Popular: 'popular', Favorites: 'favorites' } as const;
