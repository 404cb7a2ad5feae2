import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { lazyPage, lazyView, preloadPage } from '../src/client/lazy.tsx';

afterEach(cleanup);

it('draws a lazy view once its code arrives, and a failed download is tried again', async () => {
  const load = vi
    .fn<() => Promise<(p: { name: string }) => React.ReactElement>>()
    .mockRejectedValueOnce(new Error('offline'))
    .mockResolvedValue(({ name }: { name: string }) => <p>Hello {name}</p>);
  const View = lazyView(load, { fallback: <p>loading</p> });
  await expect(View.preload()).rejects.toThrow('offline');
  render(<View name="Ada" />);
  expect(await screen.findByText('Hello Ada')).toBeTruthy();
  await View.preload();
  expect(load).toHaveBeenCalledTimes(2);
});

it('preloads a page made with lazyPage, and ignores other components', async () => {
  const load = vi.fn(async () => () => <p>page</p>);
  const Page = lazyPage(load);
  preloadPage(Page);
  preloadPage(() => null);
  preloadPage(undefined);
  await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
  await Page.preload();
  expect(load).toHaveBeenCalledTimes(1);
});
