// What the home page's JavaScript is made of: loads the home page as `bench web` does, then reads each
// downloaded file's source map (build with TESSERA_WEB_SOURCEMAP=1 ./tessera build --force) and adds up
// its bytes by package (node_modules) or folder, gzip estimated per file by its compression ratio.
// Usage: node bench/web-sources.ts [path=/] [rows=60]. DEPTH=n groups the studio's own files n folders deep
// (default 2); BY_FILE=1 names the file of each run of code the source map does not place (the bundler's own).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';
import { Agent } from '../tests/agent.ts';
import { launchBrowser } from '../tests/e2e/chromium.ts';
import { ROOT, startBenchStudio } from './studio.ts';

function owner(source: string): string {
  const s = source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^\.\//, '');
  const nm = s.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = s.slice(nm + 13).split('/');
    const pkg = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    if (pkg === '@arco-design/web-react') return `${pkg}/${rest[2]}/${rest[3]}`;
    return pkg;
  }
  return s
    .replace(/^(\.\.\/)+/, '')
    .split('/')
    .slice(0, Number(process.env.DEPTH ?? 2))
    .join('/');
}

const studio = await startBenchStudio();
const browser = await launchBrowser();
const totals = new Map<string, number>();
let all = 0;
try {
  const user = new Agent(studio.url);
  await user.post('/api/passport/web/email/register/v2', {
    email: `ana-${Date.now()}@example.com`,
    password: 'correct horse battery',
  });
  const context = await browser.newContext();
  await context.addCookies([...user.cookies].map(([name, value]) => ({ name, value, url: studio.url })));
  const page = await context.newPage();
  const files: string[] = [];
  page.on('response', (res) => {
    const u = new URL(res.url());
    if (/\.(js|css)$/.test(u.pathname)) files.push(u.pathname);
  });
  await page.goto(`${studio.url}${process.argv[2] ?? '/'}`);
  await page.waitForLoadState('networkidle');
  for (const f of files) {
    const file = path.join(ROOT, 'host/web/dist', f);
    const code = readFileSync(file, 'utf8');
    const ratio = gzipSync(code, { level: 6 }).length / code.length;
    all += gzipSync(code, { level: 6 }).length;
    if (!existsSync(`${file}.map`)) {
      totals.set(`(no map) ${f}`, (totals.get(`(no map) ${f}`) ?? 0) + code.length * ratio);
      continue;
    }
    const map = new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    const lines = code.split('\n');
    let prev: { line: number; col: number; src: string } | undefined;
    const add = (src: string, n: number) => totals.set(src, (totals.get(src) ?? 0) + n * ratio);
    map.eachMapping((m) => {
      const src = m.source ? owner(m.source) : process.env.BY_FILE ? `(generated) ${f}` : '(generated)';
      if (prev) {
        const n = prev.line === m.generatedLine ? m.generatedColumn - prev.col : lines[prev.line - 1].length - prev.col;
        add(prev.src, Math.max(0, n));
      }
      prev = { line: m.generatedLine, col: m.generatedColumn, src };
    });
    if (prev) add(prev.src, lines[prev.line - 1].length - prev.col);
  }
} finally {
  await browser.close();
  await studio.stop();
}
console.log(`total ${(all / 1024).toFixed(1)} KiB gzip`);
for (const [k, v] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 60)))
  console.log(`${(v / 1024).toFixed(1).padStart(8)} KiB  ${k}`);
