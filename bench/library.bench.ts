// ./tessera bench library [resources=50000] [runs=200] [products=100000]: the library list of one space
// holding `resources` resources (notes of a fixture kind, plus a workflow, a bot, a knowledge base and a
// table) through POST /api/resource/library_resource_list: the first page, a name search, a kind filter and
// a page deep in the list by cursor; then the marketplace with `products` live products (written straight
// into the studio's SQLite file): the list, a search and suggestions. Target: under 20 ms p50 each.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { searchWords } from '@tessera/sdk/server';
import { Agent } from '../tests/agent.ts';
import { quantile } from './stream.ts';
import { ROOT, startBenchStudio } from './studio.ts';

export default async function libraryBench(args: string[]) {
  const total = Number(args[0] ?? 50_000);
  const runs = Number(args[1] ?? 200);
  const products = Number(args[2] ?? 100_000);
  const studio = await startBenchStudio({ TESSERA_EXTENSIONS_DIR: path.join(ROOT, 'tests/fixtures/kinds') });
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const post = (p: string, body: Record<string, unknown>) => user.post(p, { space_id: space, ...body });
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (let done = 0; done < total; done += 5000)
      await post('/api/fixture-notes/create', {
        name: 'note',
        count: Math.min(5000, total - done),
        at: new Date(t0 + done).toISOString(),
      });
    await post('/api/workflow_api/create', { name: 'bench flow' });
    await post('/api/draftbot/create', { name: 'bench bot' });
    await post('/api/knowledge/create', { name: 'bench docs', format_type: 0 });
    await post('/api/memory/database/add', { table_name: 'bench_rows', field_list: [{ name: 'x', type: 1 }] });
    const deep = await post('/api/resource/library_resource_list', { size: 20, name: 'note 4' });
    const time = async (body: Record<string, unknown>) => {
      const out: number[] = [];
      for (let i = 0; i < runs + 20; i++) {
        const a = performance.now();
        await post('/api/resource/library_resource_list', body);
        if (i >= 20) out.push(performance.now() - a);
      }
      return out;
    };
    // Live marketplace products, written into the studio's database (listing each one would export it).
    const file = new SQLite(path.join(studio.dataDir, 'tessera.db'));
    file.pragma('busy_timeout = 5000');
    const words = [
      'invoice',
      'greeting',
      'support',
      'travel',
      'report',
      'summary',
      'translate',
      'email',
      'calendar',
      'sales',
      'ticket',
      'review',
      'search',
      'weather',
      'recipe',
      'budget',
    ];
    const insert =
      file.prepare(`insert into market_product (id, entity_type, entity_id, source_space_id, owner_id, name, description, readme, covers, category_id, tags, is_template, submission, status, reject_reason, version_name, bundle, live_version, live_bundle, listed, public, featured, views, duplicates, favorites, created_at, updated_at, listed_at)
      values (?, 'workflow', ?, ?, ?, ?, ?, '', '[]', '', '[]', ?, '{}', 2, '', '1.0.0', '{}', '1.0.0', '{}', 1, 1, 0, 0, ?, 0, ?, ?, ?)`);
    const index = file.prepare('insert into market_fts(rowid, words) values (?, ?)');
    const owner = (await user.post('/api/space/list', {})).spaces[0].space_id as string;
    file.transaction(() => {
      for (let i = 0; i < products; i++) {
        const name = `${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}`;
        const at = new Date(t0 + i * 1000).toISOString();
        const description = `Automates ${words[(i * 3) % words.length]} work.`;
        const { lastInsertRowid } = insert.run(
          `9${String(i).padStart(12, '0')}`,
          String(i),
          owner,
          'bench',
          name,
          description,
          i % 10 === 0 ? 1 : 0,
          i % 500,
          at,
          at,
          at,
        );
        index.run(lastInsertRowid, searchWords(`${name} ${description}`).join(' '));
      }
    })();
    file.close();
    const market = async (url: string) => {
      const out: number[] = [];
      for (let i = 0; i < runs + 20; i++) {
        const a = performance.now();
        await user.get(url);
        if (i >= 20) out.push(performance.now() - a);
      }
      return out;
    };

    const p = quantile;
    console.log(
      `library: one space with ${total.toLocaleString('en-US')} notes (a fixture kind) and one resource of each built-in kind; ${runs} requests each`,
    );
    for (const [label, body] of [
      ['first page (20)', { size: 20 }],
      ['name search', { size: 20, name: 'note 123' }],
      ['kind filter', { size: 20, res_type_filter: ['workflow', 'bot'] }],
      ['page by cursor', { size: 20, cursor: deep.cursor, name: 'note 4' }],
    ] as const) {
      const t = await time(body);
      console.log(
        `  ${label.padEnd(16)} p50 ${p(t, 0.5).toFixed(2)} ms, p99 ${p(t, 0.99).toFixed(2)} ms   target p50 20 ms   ratio ${(p(t, 0.5) / 20).toFixed(2)}`,
      );
    }
    console.log(`marketplace: ${products.toLocaleString('en-US')} live products; ${runs} requests each`);
    for (const [label, url] of [
      ['list (newest)', '/api/marketplace/product/list?page_size=20'],
      ['list (popular)', '/api/marketplace/product/list?page_size=20&sort_type=popular'],
      ['search', '/api/marketplace/product/search?keyword=travel%20report&page_size=20'],
      ['suggestions', '/api/marketplace/product/search/suggest?keyword=budg'],
    ] as const) {
      const t = await market(url);
      console.log(
        `  ${label.padEnd(16)} p50 ${p(t, 0.5).toFixed(2)} ms, p99 ${p(t, 0.99).toFixed(2)} ms   target p50 20 ms   ratio ${(p(t, 0.5) / 20).toFixed(2)}`,
      );
    }
  } finally {
    await studio.stop();
  }
}
