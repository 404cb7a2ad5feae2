import { describe, expect, it } from 'vitest';
import { exampleExtensionsDir } from '../helpers.ts';
import { signedInContext, withStudioAndBrowser } from './browser.ts';

const env = withStudioAndBrowser({ extensionsDir: exampleExtensionsDir });

describe('the studio shell in Chromium', () => {
  it('renders contributed sidebar entries and pages, including a runtime-loaded extension', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, { locale: 'zh-CN' });
    // The page runs under the studio's Content Security Policy: nothing it loads (the shell, a runtime
    // remote, its chunks) may be refused.
    await context.addInitScript(() => {
      (window as unknown as { cspViolations: string[] }).cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { cspViolations: string[] }).cspViolations.push(
          `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
        ),
      );
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('home-page').waitFor();
    expect(await page.title()).toBe('首页 - Tessera Studio');
    await page.getByTestId('sidebar-hello').click();
    await page.getByTestId('hello-page').waitFor();
    await expect.poll(() => page.getByTestId('hello-greeting').textContent()).toContain('Hello, world!');
    expect(new URL(page.url()).pathname).toBe('/hello');
    expect(await page.title()).toBe('你好 - Tessera Studio');
    // The remote takes the Arco components the studio has from the page, draws one the studio's pages do not use
    // with its own copy, and links through the studio's router (one router: the link works).
    await page.locator('[data-testid="hello-rate"].arco-rate').waitFor();
    const from = await page.evaluate(() => {
      const scopes = (
        window as unknown as {
          __FEDERATION__: {
            __SHARE__: Record<
              string,
              Record<string, Record<string, Record<string, { from: string; loaded?: boolean }>>>
            >;
          };
        }
      ).__FEDERATION__.__SHARE__;
      const out: Record<string, string[]> = {};
      for (const scope of Object.values(scopes))
        for (const [name, versions] of Object.entries(scope.default ?? {}))
          for (const v of Object.values(versions)) if (v.loaded) (out[name] ??= []).push(v.from);
      return out;
    });
    for (const name of ['Button', 'Input', 'Typography', 'Space'])
      expect(new Set(from[`@arco-design/web-react/es/${name}`])).toEqual(new Set(['tessera_host']));
    expect(new Set(from['@arco-design/web-react/es/Rate'])).toEqual(new Set(['tessera_ext_hello']));
    expect(new Set(from['react-router'])).toEqual(new Set(['tessera_host']));
    await page.getByTestId('hello-home').click();
    await page.getByTestId('home-page').waitFor();
    await page.goto(`${env.studio.url}/no/such/page`);
    await page.getByText('页面不存在').waitFor();
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    await context.close();
  });

  it("starts downloading a page's code when the pointer rests on its sidebar entry", async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, { locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('home-page').waitFor();
    await page.waitForLoadState('networkidle');
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.getByTestId('sidebar-models').hover();
    await expect.poll(() => scripts.length).toBeGreaterThan(0);
    const preloaded = scripts.length;
    await page.getByTestId('sidebar-models').click();
    await page.getByTestId('models-page').waitFor();
    // Nothing of the page was left to fetch at the click.
    expect(scripts.length).toBe(preloaded);
    await context.close();
  });

  it('switches the language and remembers it across reloads', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, { locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/`);
    await expect.poll(() => page.getByTestId('sidebar-home').textContent()).toBe('首页');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-menu').getByText('English').click();
    await expect.poll(() => page.getByTestId('sidebar-home').textContent()).toBe('Home');
    await page.reload();
    await expect.poll(() => page.getByTestId('sidebar-home').textContent()).toBe('Home');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    expect(await page.getByText('Welcome to Tessera Studio').count()).toBe(1);
    await context.close();
  });

  it("speaks the browser's language on a first visit, from the sign-in page on, until one is chosen", async () => {
    for (const [locale, signIn, lang] of [
      ['en-US', 'Sign in', 'en-US'],
      ['en-GB', 'Sign in', 'en-US'],
      ['zh-CN', '登录', 'zh-CN'],
      ['zh-TW', '登录', 'zh-CN'],
    ] as const) {
      const context = await env.browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto(`${env.studio.url}/`);
      await page.waitForURL(/\/sign-in/);
      await expect
        .poll(async () => (await page.getByTestId('sign-in-submit').textContent())?.replace(/\s/g, ''), {
          message: locale,
        })
        .toBe(signIn.replace(/\s/g, ''));
      expect(await page.evaluate(() => document.documentElement.lang), locale).toBe(lang);
      await context.close();
    }
  });

  it('uses the mobile frame and panel at 640 px or less', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, { viewport: { width: 390, height: 760 } });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/`);
    await page.getByTestId('shell-mobile').waitFor();
    expect(await page.locator('.tessera-sider').count()).toBe(0);
    await page.getByTestId('mobile-menu-button').click();
    await page.getByTestId('sidebar-hello').click();
    await page.getByTestId('hello-page').waitFor();
    await expect.poll(() => page.locator('.tessera-mobile-panel').isVisible()).toBe(false);
    await page.setViewportSize({ width: 1024, height: 760 });
    await page.getByTestId('shell-desktop').waitFor();
    await context.close();
  });

  it('shows an error notice with the message and the log id of a failed request', async () => {
    const { context } = await signedInContext(env.browser, env.studio.url, { language: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${env.studio.url}/hello`);
    await page.getByTestId('hello-page').waitFor();
    const failed = page.waitForResponse(
      (r) => r.url().includes('/api/hello/greeting?name=&') || r.url().endsWith('/api/hello/greeting?name='),
    );
    await page.getByTestId('hello-name').fill('');
    const response = await failed;
    expect(response.status()).toBe(400);
    const logId = response.headers()['x-tt-logid'];
    const notice = page.getByTestId('error-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Invalid request: name:');
    expect(await page.getByTestId('error-notice-logid').textContent()).toBe(logId);
    const box = await page.locator('.arco-message').first().boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(70);
    expect(box!.y).toBeLessThanOrEqual(90);
    await context.close();
  });
});
