// Retrieval: full text always; vectors when a dataset has an embedding model; hybrid fuses both lists
// by reciprocal rank (k = 60). Datasets without a model answer by full text, so retrieval works with no
// model key at all.
import type { ServerContext } from '@tessera/sdk/server';
import { sql } from 'kysely';
import {
  SearchType,
  SliceStatus,
  type RetrieveOptions,
  type RetrievedSlice,
  type VectorIndex,
} from '../shared/index.ts';
import { embedTexts, rerankWith } from './embed.ts';
import type { KnowledgeStore } from './store.ts';

const RRF_K = 60;
type Mode = 'fulltext' | 'semantic' | 'hybrid';

export async function retrieve(
  ctx: ServerContext<unknown>,
  store: KnowledgeStore,
  vectors: () => Promise<VectorIndex>,
  opts: RetrieveOptions,
  slicesUrl: (documentId: string) => Promise<string | undefined>,
): Promise<{ slices: RetrievedSlice[]; mode: Mode; note?: string }> {
  const topK = Math.min(Math.max(opts.topK ?? 5, 1), 50);
  const minScore = opts.minScore ?? 0;
  const datasets = opts.datasetIds.length
    ? await store.db
        .selectFrom('knowledge_dataset')
        .selectAll()
        .where('id', 'in', opts.datasetIds)
        .where('space_id', '=', opts.spaceId)
        .execute()
    : [];
  if (!datasets.length || !opts.query.trim()) return { slices: [], mode: 'fulltext' };
  const wanted = opts.searchType ?? SearchType.Hybrid;
  const withVectors = datasets.filter((d) => d.embedding_model_id);
  let mode: Mode = wanted === SearchType.FullText ? 'fulltext' : wanted === SearchType.Semantic ? 'semantic' : 'hybrid';
  let note: string | undefined;
  if (mode !== 'fulltext' && !withVectors.length) {
    note = 'No embedding model is set for these knowledge bases: full-text search only.';
    mode = 'fulltext';
  }
  const pool = Math.max(topK * 4, 20);
  // The query's embeddings are asked for first: the model answers while the full-text search runs.
  const embedded = new Map<string, Promise<Float32Array>>();
  const byModel = new Map<string, string[]>();
  if (mode !== 'fulltext') {
    for (const d of withVectors)
      byModel.set(d.embedding_model_id, [...(byModel.get(d.embedding_model_id) ?? []), d.id]);
    for (const modelId of byModel.keys()) {
      const p = embedTexts(ctx, opts.spaceId, modelId, [opts.query], opts.signal).then((v) => v[0]);
      p.catch(() => undefined);
      embedded.set(modelId, p);
    }
  }
  // The vector scan is sent off (to the scan workers on large datasets) before the full-text search runs
  // on this thread, so the two overlap.
  const semantic = (async () => {
    if (mode === 'fulltext') return [];
    const index = await vectors();
    const hits: { id: string; score: number }[] = [];
    for (const [modelId, ids] of byModel) hits.push(...(await index.search(ids, await embedded.get(modelId)!, pool)));
    return hits.sort((a, b) => b.score - a.score).slice(0, pool);
  })();
  semantic.catch(() => undefined);
  if (mode === 'hybrid') {
    await Promise.allSettled(embedded.values());
    await new Promise((r) => setImmediate(r));
  }
  const ft =
    mode === 'semantic'
      ? []
      : await store.fullText(
          datasets.map((d) => d.id),
          opts.query,
          pool,
        );
  const sem = await semantic;

  const found = new Map<string, { score: number; found_by: RetrievedSlice['found_by'] }>();
  const at = (id: string) => found.get(id) ?? (found.set(id, { score: 0, found_by: {} }), found.get(id)!);
  if (mode === 'hybrid') {
    const rankers = (ft.length ? 1 : 0) + (sem.length ? 1 : 0) || 1;
    ft.forEach((h, i) => {
      const f = at(h.id);
      f.found_by.fulltext = i + 1;
      f.score += 1 / (RRF_K + i + 1);
    });
    sem.forEach((h, i) => {
      const f = at(h.id);
      f.found_by.semantic = i + 1;
      f.score += 1 / (RRF_K + i + 1);
    });
    // 1 = first in every list there was.
    for (const f of found.values()) f.score = f.score / (rankers / (RRF_K + 1));
  } else if (mode === 'fulltext') {
    ft.forEach((h, i) => found.set(h.id, { score: h.raw / (h.raw + 1), found_by: { fulltext: i + 1 } }));
  } else {
    sem.forEach((h, i) => found.set(h.id, { score: Math.max(0, h.score), found_by: { semantic: i + 1 } }));
  }
  const candidates = [...found.entries()].sort((a, b) => b[1].score - a[1].score);
  // Loaded for the final list, or for all candidates when a reranking model orders them.
  const shortlist = opts.rerankModelId
    ? candidates.slice(0, pool)
    : candidates.filter(([, f]) => f.score >= minScore).slice(0, topK + 10);
  if (!shortlist.length) return { slices: [], mode, note };
  const rows = await store.db
    .selectFrom('knowledge_slice as s')
    .innerJoin('knowledge_document as d', 'd.id', 's.document_id')
    .select([
      's.id',
      's.content',
      's.document_id',
      's.dataset_id',
      's.sequence',
      's.status',
      'd.name',
      'd.web_url',
      'd.format_type',
    ])
    .where(
      's.id',
      'in',
      shortlist.map(([id]) => id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  let ranked = shortlist.filter(([id]) => byId.has(id) && Number(byId.get(id)!.status) !== SliceStatus.Deactive);
  if (opts.rerankModelId && ranked.length) {
    const order = await rerankWith(
      ctx,
      opts.spaceId,
      opts.rerankModelId,
      opts.query,
      ranked.map(([id]) => byId.get(id)!.content),
      opts.signal,
    );
    ranked = order.map(
      (o, i) =>
        [
          ranked[o.index][0],
          { score: o.score, found_by: { ...ranked[o.index][1].found_by, rerank: i + 1 } },
        ] as (typeof ranked)[number],
    );
    ranked = ranked.filter(([, f]) => f.score >= minScore);
  }
  ranked = ranked.slice(0, topK);
  const slices: RetrievedSlice[] = [];
  for (const [id, f] of ranked) {
    const r = byId.get(id)!;
    const url = r.web_url || (Number(r.format_type) === 2 ? await slicesUrl(r.document_id) : undefined);
    slices.push({
      slice_id: id,
      document_id: r.document_id,
      dataset_id: r.dataset_id,
      document_name: r.name,
      content: r.content,
      score: Math.round(f.score * 1000) / 1000,
      found_by: f.found_by,
      sequence: Number(r.sequence),
      ...(url ? { url } : {}),
    });
  }
  // Hit counts, off the answer's path.
  void countHits(store, slices).catch(() => undefined);
  return { slices, mode, note };
}

async function countHits(store: KnowledgeStore, slices: RetrievedSlice[]) {
  if (!slices.length) return;
  await store.db
    .updateTable('knowledge_slice')
    .set({ hit_count: sql`hit_count + 1` })
    .where(
      'id',
      'in',
      slices.map((s) => s.slice_id),
    )
    .execute();
  for (const d of new Set(slices.map((s) => s.document_id)))
    await store.db
      .updateTable('knowledge_document')
      .set({ hit_count: sql`hit_count + 1` })
      .where('id', '=', d)
      .execute();
}
