import { Spin, Table } from '@arco-design/web-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { InfiniteTableProps, Page } from './widgets.tsx';

/** A table that loads the next page when its end scrolls into view (see `InfiniteTable` in widgets). */
export function InfiniteTable<T extends object>({ queryKey, fetchPage, empty, ...table }: InfiniteTableProps<T>) {
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | number | undefined,
    getNextPageParam: (last: Page<T>) => last.next,
  });
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const data = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="tessera-infinite-table">
      <Table<T> {...table} data={data} pagination={false} loading={q.isLoading} noDataElement={empty} />
      <div ref={sentinel} style={{ height: 1 }} />
      {q.isFetchingNextPage && (
        <div style={{ textAlign: 'center', padding: 8 }}>
          <Spin size={16} />
        </div>
      )}
    </div>
  );
}
