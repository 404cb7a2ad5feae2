// Translations given as loaders: the page reads the language it shows (and the fallback, en-US) before it draws,
// and another language when the user switches to it.
import { afterEach, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { defineExtension, useStudio } from '../src/client/index.ts';
import { renderExtension } from '../src/testing/client.tsx';

afterEach(cleanup);

function Greeting() {
  const { t } = useTranslation('greeter');
  const { setLanguage } = useStudio();
  return (
    <button type="button" onClick={() => setLanguage('zh-CN')}>
      {t('hello')}
    </button>
  );
}

/** An extension whose page shows one text, translated by these loaders. */
function greeter(english: () => Promise<unknown>, chinese: () => Promise<unknown>) {
  return defineExtension({
    id: 'greeter',
    register(ctx) {
      ctx.i18n({ 'en-US': english, 'zh-CN': chinese });
      ctx.route({ path: '/', component: Greeting });
    },
  });
}

it('reads only the language shown, and the other one when the user switches to it', async () => {
  const english = vi.fn(async () => ({ default: { hello: 'Hello' } }));
  const chinese = vi.fn(async () => ({ default: { hello: '你好' } }));
  await renderExtension(greeter(english, chinese), { language: 'en-US' });
  expect(await screen.findByText('Hello')).toBeTruthy();
  expect(english).toHaveBeenCalledTimes(1);
  expect(chinese).not.toHaveBeenCalled();
  await act(async () => screen.getByText('Hello').click());
  expect(await screen.findByText('你好')).toBeTruthy();
  expect(chinese).toHaveBeenCalledTimes(1);
});

it('draws a page opened in Chinese in Chinese (the fallback language read as well)', async () => {
  const english = vi.fn(async () => ({ hello: 'Hello' }));
  const chinese = vi.fn(async () => ({ hello: '你好' }));
  await renderExtension(greeter(english, chinese), { language: 'zh-CN' });
  expect(await screen.findByText('你好')).toBeTruthy();
  expect(english).toHaveBeenCalledTimes(1);
});
