// The main pages of the studio, desktop and phone, in both languages, compared with the screenshots kept in
// tests/e2e/visual/ (tests/e2e/visual.ts says how, and how to update them after a change meant to be seen).
import { describe, expect, it } from 'vitest';
import { signedInContext, withStudioAndBrowser } from './browser.ts';
import { compareScreenshot } from './visual.ts';

const env = withStudioAndBrowser();

const PAGES: [string, string, string][] = [
  ['home', '/', 'home-page'],
  ['bots', '/bots', 'bot-library'],
  ['workflows', '/workflows', 'workflow-library'],
  ['knowledge', '/knowledge', 'knowledge-library'],
  ['tables', '/tables', 'table-library'],
  ['prompts', '/prompts', 'prompts-page'],
];
const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

describe('the main pages look as they did', () => {
  // One person for every picture (the first: the platform's administrator, Settings in the sidebar), in a new space.
  for (const language of ['en-US', 'zh-CN'] as const) {
    for (const [device, viewport] of Object.entries(VIEWPORTS)) {
      it(`${device}, ${language}`, async () => {
        const { context } = await signedInContext(env.browser, env.studio.url, {
          language,
          viewport,
          name: 'Visual',
          ...(device === 'phone' ? { isMobile: true, hasTouch: true } : {}),
        });
        const page = await context.newPage();
        const problems: string[] = [];
        for (const [name, path, testId] of PAGES) {
          await page.goto(`${env.studio.url}${path}`);
          await page.getByTestId(testId).waitFor();
          const r = await compareScreenshot(page, `${name}-${device}-${language}`);
          if (r.problem) problems.push(r.problem);
        }
        await context.close();
        expect(problems).toEqual([]);
      });
    }
  }
});
