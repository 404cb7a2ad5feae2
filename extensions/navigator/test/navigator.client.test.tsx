import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderExtension } from '@tessera/sdk/testing/client';
import { ResourceKinds, SearchProviders, defineExtension, type SearchResult } from '@tessera/sdk/client';
import navigator from '../src/client/index.tsx';
import { palette, matchScore } from '../src/client/store.ts';

const extensions = { platformName: 'Tessera Studio', extensions: [] };
const fakeFetch = (async () =>
  new Response(JSON.stringify({ code: 0, msg: '', data: extensions }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })) as unknown as typeof fetch;

/** An area with a page, a sidebar entry, a kind one creates, and (optionally) a search of its things. */
function area(search?: (q: string, signal: AbortSignal) => Promise<SearchResult[]>) {
  return defineExtension({
    id: 'gadgets',
    register(ctx) {
      ctx.i18n({
        'en-US': { nav: 'Gadgets', kind: 'Gadget', create: 'Create gadget', found: 'Gadgets found' },
        'zh-CN': { nav: '小工具', kind: '小工具', create: '新建小工具', found: '找到的小工具' },
      });
      ctx.route({ path: '/', component: () => <div data-testid="start-page">start</div> });
      ctx.route({ path: '/gadgets', component: () => <div data-testid="gadgets-page">gadgets</div> });
      ctx.route({ path: '/gadgets/:id', component: () => <div data-testid="gadget-page">one gadget</div> });
      ctx.sidebar({ key: 'gadgets', area: 'space', group: 'build', label: 'nav', path: '/gadgets' });
      ctx.sidebar({ key: 'secret', area: 'space', label: 'nav', path: '/secret', visible: () => false });
      ctx.register(ResourceKinds, {
        kind: 'gadget',
        label: 'kind',
        createLabel: 'create',
        path: '/gadgets',
        createPath: '/gadgets?create=1',
      });
      if (search) ctx.register(SearchProviders, { key: 'gadgets', label: 'found', search });
    },
  });
}

const openPalette = () => act(() => void fireEvent.keyDown(window, { key: 'k', ctrlKey: true }));

afterEach(() => {
  act(() => palette.close());
  cleanup();
});

describe('navigator: + Create and the command palette', () => {
  it("lists every kind's create action under + Create and goes to it", async () => {
    const { container } = await renderExtension(navigator, { path: '/', fetch: fakeFetch, others: [area()] });
    fireEvent.click(await screen.findByTestId('create-menu'));
    fireEvent.click(await screen.findByTestId('create-menu-gadget'));
    await screen.findByTestId('gadgets-page');
    expect(container).toBeTruthy();
  });

  it('finds pages and actions as the person types, skips pages hidden from them, and opens the choice with Enter', async () => {
    await renderExtension(navigator, { path: '/', fetch: fakeFetch, others: [area()] });
    await screen.findByTestId('start-page');
    openPalette();
    const input = await screen.findByTestId('palette-input');
    // Nothing typed: every action and page.
    expect(screen.getAllByTestId('palette-item').map((i) => i.textContent)).toEqual(['Create gadget', 'Gadgets']);
    fireEvent.change(input, { target: { value: 'gadg' } });
    await waitFor(() =>
      expect(screen.getAllByTestId('palette-item').map((i) => i.getAttribute('data-path'))).toEqual([
        '/gadgets?create=1',
        '/gadgets',
      ]),
    );
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    await screen.findByTestId('gadgets-page');
    expect(screen.queryByTestId('palette')).toBeNull();
    openPalette();
    fireEvent.change(await screen.findByTestId('palette-input'), { target: { value: 'zzz' } });
    expect((await screen.findByTestId('palette-nothing')).textContent).toBe('Nothing matches “zzz”.');
  });

  it("shows what search providers find with the kind's name, aborts the search typed past, and says when one fails", async () => {
    const asked: string[] = [];
    const aborted: string[] = [];
    const search = async (q: string, signal: AbortSignal) => {
      asked.push(q);
      signal.addEventListener('abort', () => aborted.push(q));
      if (q === 'broken') throw Object.assign(new Error('x'), { msg: 'The library is not reachable.' });
      return [{ key: 'g1', title: `Gadget about ${q}`, description: 'the first', kind: 'gadget', path: '/gadgets/g1' }];
    };
    await renderExtension(navigator, { path: '/', fetch: fakeFetch, others: [area(search)] });
    await screen.findByTestId('start-page');
    openPalette();
    const input = await screen.findByTestId('palette-input');
    fireEvent.change(input, { target: { value: 'weather' } });
    const section = await screen.findByTestId('palette-section-gadgets');
    await waitFor(() => expect(section.textContent).toContain('Gadget about weather'));
    expect(section.textContent).toContain('Gadgets found');
    expect(section.textContent).toContain('Gadget'); // the kind's tag
    fireEvent.change(input, { target: { value: 'broken' } });
    await waitFor(() =>
      expect(screen.getByTestId('palette-section-gadgets').textContent).toContain(
        'This search failed: The library is not reachable.',
      ),
    );
    expect(aborted).toContain('weather');
    expect(asked).toEqual(['weather', 'broken']);
    fireEvent.change(input, { target: { value: 'ok' } });
    await waitFor(() =>
      expect(screen.getAllByTestId('palette-item').some((i) => i.getAttribute('data-path') === '/gadgets/g1')).toBe(
        true,
      ),
    );
    fireEvent.click(screen.getAllByTestId('palette-item').find((i) => i.getAttribute('data-path') === '/gadgets/g1')!);
    await screen.findByTestId('gadget-page');
  });

  it('speaks Chinese', async () => {
    await renderExtension(navigator, { path: '/', fetch: fakeFetch, language: 'zh-CN', others: [area()] });
    expect((await screen.findByTestId('create-menu')).textContent).toBe('创建');
    openPalette();
    await screen.findByTestId('palette-input');
    expect(screen.getByTestId('palette-section-pages').textContent).toContain('页面');
    expect(screen.getAllByTestId('palette-item').map((i) => i.textContent)).toEqual(['新建小工具', '小工具']);
  });

  it('ranks a whole-word start above a match inside a word', () => {
    expect(matchScore('Bots', 'bots')).toBeGreaterThan(matchScore('Robots', 'bots'));
    expect(matchScore('My bots', 'bots')).toBeGreaterThan(matchScore('Robots', 'bots'));
    expect(matchScore('Café', 'cafe')).toBe(4);
    expect(matchScore('Tables', 'xyz')).toBe(0);
  });

  it('does not open on a page without the header (signing in)', async () => {
    const bare = defineExtension({
      id: 'sign-in-fixture',
      register(ctx) {
        ctx.route({
          path: '/sign-in',
          layout: 'bare',
          public: true,
          component: () => <div data-testid="sign-in-page">sign in</div>,
        });
      },
    });
    await renderExtension(navigator, { path: '/sign-in', fetch: fakeFetch, others: [bare] });
    await screen.findByTestId('sign-in-page');
    openPalette();
    expect(palette.get()).toBe(false);
  });
});
