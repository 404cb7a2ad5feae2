// ./tessera bench knowledge [chunks=100000] [queries=200]: ingest throughput of text documents (parse,
// chunk, full-text index; no embedding model), then retrieval over `chunks` slices with 256-dimension
// vectors (the fixture's embedding server) by full text, vectors and hybrid, through POST
// /api/knowledge/retrieve (request latency, and the server's own time).
// Targets: ingest over 2,000 chunks/s; hybrid retrieval p50 under 20 ms at 100,000 chunks.
// `./tessera bench knowledge vectors [slices] [dims] [queries]` measures the vector engines alone (bench/vectors.ts).
import { Agent } from '../tests/agent.ts';
import { startFakeLlm } from '../tests/fixtures/fake-llm.ts';
import { quantile } from './stream.ts';
import { startBenchStudio } from './studio.ts';

const WORDS = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x`);
let seed = 42;
const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const word = () => WORDS[Math.floor(rand() ** 2 * WORDS.length)];
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

export default async function knowledgeBench(args: string[]) {
  if (args[0] === 'vectors') return (await import('./vectors.ts')).default(args.slice(1));
  const total = Number(args[0] ?? 100_000);
  const queries = Number(args[1] ?? 200);
  const perDoc = 2000;
  const llm = await startFakeLlm();
  const studio = await startBenchStudio();
  try {
    const user = new Agent(studio.url);
    await user.post('/api/passport/web/email/register/v2', {
      email: `bench-${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const space = (await user.post('/api/space/create', { name: 'Bench' })).space_id;
    const post = (p: string, body: Record<string, unknown>) => user.post(p, { space_id: space, ...body });
    const cred = await user.post('/api/model_manage/v1/platform/credential/create', {
      provider: 'openai-compatible',
      name: 'bench-embed',
      base_url: `${llm.url}/v1`,
      api_key: 'sk-bench',
    });
    const model = (
      await user.post('/api/model_manage/v1/platform/model/create', {
        credential_id: cred.credential_id,
        model_name: 'concept-embed-256',
        kind: 'embedding',
      })
    ).model_id;
    // One chunk per paragraph (custom separator): the count is exact.
    const docs = Array.from({ length: Math.ceil(total / perDoc) }, (_, d) =>
      Array.from({ length: Math.min(perDoc, total - d * perDoc) }, () => sentence(40)).join('\n\n'),
    );
    const strategy = { chunk_type: 1, separator: '\\n\\n', max_tokens: 800, overlap: 0 };
    const ingest = async (embedding_model_id: string) => {
      const { dataset_id } = await post('/api/knowledge/create', {
        name: `bench ${embedding_model_id ? 'vectors' : 'text'}`,
        format_type: 0,
        embedding_model_id,
      });
      const t0 = performance.now();
      const ids: string[] = [];
      for (const [i, text] of docs.entries())
        ids.push(
          ...(
            await post('/api/knowledge/document/create', {
              dataset_id,
              document_bases: [{ name: `doc ${i}`, custom_content: text }],
              chunk_strategy: strategy,
            })
          ).document_infos.map((d: { document_id: string }) => d.document_id),
        );
      for (;;) {
        const { data } = await post('/api/knowledge/document/progress/get', { document_ids: ids });
        if (data.some((d: { status: number; status_descript: string }) => d.status === 9))
          throw new Error(`ingest failed: ${JSON.stringify(data.find((d: { status: number }) => d.status === 9))}`);
        if (data.every((d: { status: number }) => d.status === 1)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      return { dataset_id, seconds: (performance.now() - t0) / 1000 };
    };
    const plain = await ingest('');
    const rate = total / plain.seconds;
    const withVectors = await ingest(model);

    const measure = async (dataset_id: string, search_type: number) => {
      const client: number[] = [];
      const server: number[] = [];
      for (let i = 0; i < queries + 20; i++) {
        const t0 = performance.now();
        const r = await post('/api/knowledge/retrieve', {
          dataset_ids: [dataset_id],
          query: sentence(4),
          top_k: 5,
          search_type,
        });
        if (i < 20) continue; // warm-up (the vector cache loads on the first search)
        client.push(performance.now() - t0);
        server.push(r.took_ms);
      }
      return { client, server };
    };
    const p = quantile;
    console.log(
      `knowledge: ${total.toLocaleString('en-US')} chunks of 40 words in ${docs.length} documents; ${queries} queries each (4 words, top 5)`,
    );
    console.log(
      `  ingest without an embedding model (parse, chunk, full-text index): ${plain.seconds.toFixed(1)} s, ${Math.round(rate).toLocaleString('en-US')} chunks/s   target 2,000   ratio ${(rate / 2000).toFixed(2)}`,
    );
    console.log(
      `  ingest with 256-d embeddings from the fixture server: ${withVectors.seconds.toFixed(1)} s, ${Math.round(total / withVectors.seconds).toLocaleString('en-US')} chunks/s`,
    );
    for (const [label, type] of [
      ['full text', 20],
      ['vectors  ', 0],
      ['hybrid   ', 1],
    ] as const) {
      const m = await measure(withVectors.dataset_id, type);
      const line = `  retrieval ${label}: request p50 ${p(m.client, 0.5).toFixed(2)} ms, p99 ${p(m.client, 0.99).toFixed(2)} ms; in the server p50 ${p(m.server, 0.5).toFixed(2)} ms, p99 ${p(m.server, 0.99).toFixed(2)} ms`;
      console.log(type === 1 ? `${line}   target p50 20 ms   ratio ${(p(m.client, 0.5) / 20).toFixed(2)}` : line);
    }
  } finally {
    await studio.stop();
    await llm.close();
  }
}
