// ./tessera bench web: what a signed-in person's browser downloads to show the home page, and then the
// workflow editor: the JavaScript and CSS by file, raw and gzip-compressed (level 6, as a server or CDN
// would send them). An area's code should arrive when its page opens, not with the first page.
import { gzipSync } from 'node:zlib';
import { Agent } from '../tests/agent.ts';
import { launchBrowser } from '../tests/e2e/chromium.ts';
import { startBenchStudio } from './studio.ts';

interface Asset {
  url: string;
  raw: number;
  gzip: number;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export default async function webBench() {
  const studio = await startBenchStudio();
  const browser = await launchBrowser();
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', { email: `bench-${Date.now()}@example.com`, password: 'correct horse battery' });
    const space = (await user.post('/api/space/list', {})).spaces[0].space_id;
    const { workflow_id } = await user.post('/api/workflow_api/create', { space_id: space, name: `Web bench ${Date.now()}` });
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([...user.cookies].map(([name, value]) => ({ name, value, url: studio.url })));
    const page = await context.newPage();
    const seen = new Set<string>();
    let assets: Asset[] = [];
    page.on('response', async (res) => {
      const url = new URL(res.url());
      if (url.origin !== studio.url || !/\.(js|css)$/.test(url.pathname) || seen.has(url.pathname)) return;
      seen.add(url.pathname);
      try {
        const body = await res.body();
        assets.push({ url: url.pathname, raw: body.length, gzip: gzipSync(body, { level: 6 }).length });
      } catch {
        /* a response without a body */
      }
    });
    const report = (title: string) => {
      const raw = assets.reduce((n, a) => n + a.raw, 0);
      const gz = assets.reduce((n, a) => n + a.gzip, 0);
      console.log(`  ${title}: ${assets.length} files, ${kb(raw)} raw, ${kb(gz)} gzip`);
      for (const a of [...assets].sort((x, y) => y.gzip - x.gzip).slice(0, 6)) console.log(`    ${kb(a.gzip).padStart(10)} gzip  ${a.url}`);
      assets = [];
      return gz;
    };
    console.log('web: JavaScript and CSS a signed-in browser downloads (first visit, empty cache)');
    await page.goto(`${studio.url}/`);
    await page.getByTestId('home-page').waitFor();
    await page.waitForLoadState('networkidle');
    const home = report('the home page');
    await page.getByTestId('sidebar-workflows').click();
    await page.getByTestId('workflow-library').waitFor();
    await page.waitForLoadState('networkidle');
    report('then the workflow library');
    await page.goto(`${studio.url}/workflows/${workflow_id}?space_id=${space}`);
    await page.getByTestId('workflow-editor').waitFor();
    await page.waitForLoadState('networkidle');
    report('then the workflow editor (a reload: only what was not cached)');
    console.log(`  initial download (home): ${kb(home)} gzip`);
    await context.close();
  } finally {
    await browser.close();
    await studio.stop();
  }
}
