import { afterEach, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { InfiniteTable, type Page } from '../src/client/widgets.tsx';

afterEach(cleanup);

// An IntersectionObserver the test drives: "scrolling to the end" is calling reveal().
const observers: ((entries: { isIntersecting: boolean }[]) => void)[] = [];
(globalThis as any).IntersectionObserver = class {
  cb: (entries: { isIntersecting: boolean }[]) => void;
  constructor(cb: (entries: { isIntersecting: boolean }[]) => void) {
    this.cb = cb;
    observers.push(cb);
  }
  observe() {}
  disconnect() {
    observers.splice(observers.indexOf(this.cb), 1);
  }
};
const reveal = () => act(() => observers.forEach((cb) => cb([{ isIntersecting: true }])));

it('loads the next page when its end comes into view, and stops at the last page', async () => {
  const asked: (string | number | undefined)[] = [];
  const fetchPage = async (cursor: string | number | undefined): Promise<Page<{ id: number; name: string }>> => {
    asked.push(cursor);
    const start = Number(cursor ?? 0);
    return {
      items: [0, 1].map((i) => ({ id: start + i, name: `row ${start + i}` })),
      next: start + 2 < 6 ? start + 2 : undefined,
    };
  };
  render(
    <QueryClientProvider client={new QueryClient()}>
      <InfiniteTable
        rowKey="id"
        queryKey={['rows']}
        fetchPage={fetchPage}
        columns={[{ title: 'Name', dataIndex: 'name' }]}
      />
    </QueryClientProvider>,
  );
  await screen.findByText('row 1');
  reveal();
  await screen.findByText('row 3');
  reveal();
  await screen.findByText('row 5');
  reveal();
  await waitFor(() => expect(asked).toEqual([undefined, 2, 4]));
});
