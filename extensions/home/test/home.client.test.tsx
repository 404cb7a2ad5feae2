import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderExtension } from '@tessera/sdk/testing/client';
import {
  HomeSections,
  OnboardingSteps,
  ResourceKinds,
  defineExtension,
  type RecentResource,
} from '@tessera/sdk/client';
import home from '../src/client/index.tsx';

const extensions = {
  platformName: 'Tessera Studio',
  extensions: [{ id: 'home', version: '0.1.0', state: 'started', source: 'builtin' }],
};
const fakeFetch = (async (url: string) =>
  new Response(
    JSON.stringify(
      url.startsWith('/api/extensions') ? { code: 0, msg: '', data: extensions } : { code: 404002, msg: 'no' },
    ),
    {
      status: url.startsWith('/api/extensions') ? 200 : 404,
      headers: { 'content-type': 'application/json', 'x-tt-logid': 'L1' },
    },
  )) as unknown as typeof fetch;

const at = (iso: string) => new Date(iso).getTime();
/** A kind contributed by a fixture extension: home names no kind. */
function kindExtension(id: string, kind: string, items: RecentResource[], opts: { create?: boolean } = {}) {
  return defineExtension({
    id,
    register(ctx) {
      ctx.i18n({
        'en-US': { label: `${kind} kind`, create: `New ${kind}` },
        'zh-CN': { label: `${kind} 类`, create: `新建 ${kind}` },
      });
      ctx.route({ path: `/${kind}s`, component: () => <div data-testid={`${kind}-page`}>{kind} list</div> });
      ctx.register(ResourceKinds, {
        kind,
        label: 'label',
        createLabel: 'create',
        path: `/${kind}s`,
        createPath: opts.create === false ? undefined : `/${kind}s`,
        useRecent: () => ({ items, loading: false }),
      });
    },
  });
}

afterEach(cleanup);

describe('home extension', () => {
  it('with no kind enabled, says how to enable one and promises nothing', async () => {
    await renderExtension(home, { path: '/', fetch: fakeFetch });
    expect(await screen.findByText('Welcome to Tessera Studio')).toBeTruthy();
    expect(screen.getByTestId('home-no-kinds').textContent).toContain('Settings › Extensions');
    expect(screen.queryByText(/bots|plugins|knowledge/i)).toBeNull();
    expect(screen.getByTestId('sidebar-home').textContent).toBe('Home');
    expect(document.title).toBe('Home - Tessera Studio');
  });

  it('offers a create button per kind and lists recent work across kinds, newest first', async () => {
    const gadgets = kindExtension('gadgets', 'gadget', [
      { id: 'g1', name: 'Old gadget', updatedAt: at('2026-11-01T10:00:00Z'), path: '/gadgets' },
      {
        id: 'g2',
        name: 'New gadget',
        description: 'the newest',
        updatedAt: at('2026-11-20T10:00:00Z'),
        path: '/gadgets',
      },
    ]);
    const widgets = kindExtension(
      'widgets',
      'widget',
      [{ id: 'w1', name: 'Middle widget', updatedAt: at('2026-11-10T10:00:00Z'), path: '/widgets' }],
      { create: false },
    );
    await renderExtension(home, { path: '/', fetch: fakeFetch, others: [gadgets, widgets] });
    await screen.findByTestId('home-create-gadget');
    expect(screen.queryByTestId('home-create-widget')).toBeNull();
    expect(screen.getByTestId('home-create-gadget').textContent).toBe('New gadget');
    const rows = await screen.findAllByTestId('home-recent-item');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('New gadget'),
      expect.stringContaining('Middle widget'),
      expect.stringContaining('Old gadget'),
    ]);
    expect(rows[1].textContent).toContain('widget kind');
    expect(rows[0].textContent).toContain('Nov 20, 2026');
    fireEvent.click(screen.getByTestId('home-create-gadget'));
    await screen.findByTestId('gadget-page');
  });

  it("shows an item without a picture of its own with its kind's icon (a hook answering a new array each time included)", async () => {
    const Icon = () => <svg data-testid="gadget-kind-icon" />;
    const withIcon = defineExtension({
      id: 'gadgets',
      register(ctx) {
        ctx.i18n({ 'en-US': { label: 'Gadget' }, 'zh-CN': { label: '小部件' } });
        ctx.register(ResourceKinds, {
          kind: 'gadget',
          label: 'label',
          icon: Icon,
          path: '/gadgets',
          useRecent: () => ({
            items: [{ id: 'g1', name: 'Plain', updatedAt: at('2026-11-01T10:00:00Z'), path: '/gadgets' }],
            loading: false,
          }),
        }); // a new array each time
      },
    });
    await renderExtension(home, { path: '/', fetch: fakeFetch, others: [withIcon] });
    const row = await screen.findByTestId('home-recent-item');
    expect(row.querySelector('[data-testid="home-recent-kind-icon"] [data-testid="gadget-kind-icon"]')).toBeTruthy();
  });

  it('says the space is empty when kinds have nothing yet, and shows sections other extensions add', async () => {
    const templates = defineExtension({
      id: 'templates-fixture',
      register(ctx) {
        ctx.register(HomeSections, { key: 'templates', component: () => <div>Start from a template</div> });
      },
    });
    await renderExtension(home, {
      path: '/',
      fetch: fakeFetch,
      others: [kindExtension('gadgets', 'gadget', []), templates],
    });
    await screen.findByTestId('home-recent-empty');
    expect(screen.getByTestId('home-section-templates').textContent).toBe('Start from a template');
  });

  it('speaks Chinese when the language is zh-CN, dates included', async () => {
    const gadgets = kindExtension('gadgets', 'gadget', [
      { id: 'g1', name: 'A', updatedAt: at('2026-11-20T10:00:00Z'), path: '/gadgets' },
    ]);
    await renderExtension(home, { path: '/', fetch: fakeFetch, language: 'zh-CN', others: [gadgets] });
    expect(await screen.findByText('欢迎使用 Tessera Studio')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('home-recent-item').textContent).toContain('2026年11月20日'));
    expect(screen.getByTestId('home-create-gadget').textContent).toBe('新建 gadget');
  });
});

describe('home: getting started', () => {
  /** Steps a fixture contributes; `done` says which the studio's state has done. */
  function steps(done: Record<string, boolean>) {
    return defineExtension({
      id: 'steps-fixture',
      register(ctx) {
        ctx.i18n({
          'en-US': {
            model: 'Connect a model',
            modelHint: 'Bots answer with one',
            bot: 'Make a bot',
            publish: 'Publish it',
          },
          'zh-CN': { model: '接入模型', bot: '创建智能体', publish: '发布' },
        });
        ctx.route({ path: '/models', component: () => <div data-testid="models-page">models</div> });
        ctx.route({ path: '/bots', component: () => <div data-testid="bots-page">bots</div> });
        ctx.register(OnboardingSteps, {
          key: 'model',
          label: 'model',
          hint: 'modelHint',
          order: 10,
          path: '/models',
          useDone: () => ({ done: !!done.model, loading: false }),
        });
        ctx.register(OnboardingSteps, {
          key: 'publish',
          label: 'publish',
          order: 30,
          path: '/bots',
          useDone: () => ({ done: !!done.publish, loading: false }),
        });
        ctx.register(OnboardingSteps, {
          key: 'bot',
          label: 'bot',
          order: 20,
          path: '/bots',
          useDone: () => ({ done: !!done.bot, loading: false }),
        });
      },
    });
  }

  it('lists the steps in order, marks what the studio has done and leads to the first one left', async () => {
    localStorage.removeItem('tessera.home.gettingStartedHidden');
    await renderExtension(home, { path: '/', fetch: fakeFetch, others: [steps({ model: true })] });
    const rows = await screen.findAllByTestId('home-getting-started-step');
    expect(
      rows.map((r) => [r.getAttribute('data-step'), r.getAttribute('data-done'), r.getAttribute('data-current')]),
    ).toEqual([
      ['model', 'true', 'false'],
      ['bot', 'false', 'true'],
      ['publish', 'false', 'false'],
    ]);
    expect(screen.getByTestId('home-getting-started-count').textContent).toBe('1 of 3 done');
    // A done step says no more than its name.
    expect(rows[0].textContent).not.toContain('Bots answer with one');
    fireEvent.click(screen.getByTestId('home-getting-started-go-bot'));
    await screen.findByTestId('bots-page');
  });

  it('is gone when every step is done, and stays hidden once hidden', async () => {
    localStorage.removeItem('tessera.home.gettingStartedHidden');
    await renderExtension(home, {
      path: '/',
      fetch: fakeFetch,
      others: [steps({ model: true, bot: true, publish: true })],
    });
    await screen.findByText('Welcome to Tessera Studio');
    expect(screen.queryByTestId('home-getting-started')).toBeNull();
    cleanup();
    await renderExtension(home, { path: '/', fetch: fakeFetch, others: [steps({})] });
    fireEvent.click(await screen.findByTestId('home-getting-started-hide'));
    expect(screen.queryByTestId('home-getting-started')).toBeNull();
    cleanup();
    await renderExtension(home, { path: '/', fetch: fakeFetch, others: [steps({})] });
    await screen.findByText('Welcome to Tessera Studio');
    expect(screen.queryByTestId('home-getting-started')).toBeNull();
    localStorage.removeItem('tessera.home.gettingStartedHidden');
  });
});
