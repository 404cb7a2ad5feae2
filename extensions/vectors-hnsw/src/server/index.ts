// The `hnsw` vector store for knowledge (choose it with knowledge.config.vectorStore: hnsw, or
// TESSERA_VECTOR_STORE=hnsw): an approximate index per dataset over the studio database's vectors.
import path from 'node:path';
import { ErrorTexts, defineExtension } from '@tessera/sdk/server';
import { VectorStores } from '@tessera/ext-knowledge/shared';
import { z } from 'zod';

const Options = z.object({
  exactBelow: z.number().int().min(0).default(20_000),
  connectivity: z.number().int().min(4).max(64).default(32),
  expansionAdd: z.number().int().min(8).max(1024).default(64),
  expansionSearch: z.number().int().min(8).max(4096).default(640),
  refine: z.number().int().min(0).max(100).default(5),
  quantization: z.enum(['i8', 'f16', 'f32']).default('i8'),
  threads: z.number().int().min(0).max(64).default(0),
  saveAfterMs: z.number().int().min(0).default(30_000),
});

export default defineExtension({
  id: 'vectors-hnsw',
  register(ctx) {
    ctx.register(ErrorTexts, {
      key: 'vectors-hnsw.dimensions',
      texts: {
        'en-US':
          "The dataset's vectors have {{stored}} dimensions but its embedding model now gives {{given}}; resegment its documents to embed them again.",
        'zh-CN': '知识库中的向量为 {{stored}} 维，而其嵌入模型现在输出 {{given}} 维；请重新分段其文档以重新生成向量。',
      },
    });
    ctx.register(ErrorTexts, {
      key: 'vectors-hnsw.unavailable',
      texts: {
        'en-US':
          "The hnsw vector store cannot load usearch on this machine ({{detail}}); nothing was changed. Set knowledge.vectorStore to 'embedded' until it can.",
        'zh-CN':
          '此机器上的 hnsw 向量存储无法加载 usearch（{{detail}}）；未做任何更改。在此之前请将 knowledge.vectorStore 设为 embedded。',
      },
    });
    ctx.register(VectorStores, {
      key: 'hnsw',
      description:
        "An approximate index (HNSW) per dataset in this process, saved in the data folder, over the studio database's vectors; datasets under 20,000 slices are searched exactly. For millions of slices on one studio process.",
      shared: false,
      create: async ({ dataDir, config, ...rest }) => {
        const embedded = ctx.registry(VectorStores).get('embedded');
        if (!embedded)
          throw new Error(
            "The hnsw vector store keeps its vectors in knowledge's 'embedded' store, which is not registered.",
          );
        const parsed = Options.safeParse(config);
        if (!parsed.success)
          throw new Error(
            `knowledge.vectorConfig for hnsw: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
          );
        const store = await embedded.create({ dataDir, config, ...rest });
        // The engine (and usearch, a native module) load with the first use of the store, not at start.
        const { hnswIndex } = await import('./hnsw.ts');
        return hnswIndex(store, path.join(dataDir, 'vectors', 'hnsw'), parsed.data, (m) =>
          ctx.logger.warn(`vectors-hnsw: ${m}`),
        );
      },
    });
  },
});
