// Embeddings through the models extension (a model of kind embedding chosen per dataset); `ai` is
// loaded with the first embedding.
import { badRequest, describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';

export async function embedTexts(
  ctx: ServerContext<unknown>,
  spaceId: string,
  modelId: string,
  values: string[],
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const models = ctx.optionalService(ModelsService);
  if (!models) throw badRequest('Embeddings need the models extension, which is not running.');
  const model = await models.get(spaceId, modelId);
  if (model.kind !== 'embedding')
    throw badRequest(`The model ${model.display_name || model.model_name} is a chat model; choose an embedding model.`);
  const { embedMany } = await import('ai');
  try {
    const r = await embedMany({ model: await model.embedding(), values, maxRetries: 1, abortSignal: signal });
    await models
      .recordUsage({
        space_id: spaceId,
        model_id: modelId,
        input_tokens: r.usage?.tokens ?? 0,
        output_tokens: 0,
        source: 'knowledge',
      })
      .catch(() => undefined);
    return r.embeddings.map((e) => Float32Array.from(e));
  } catch (e) {
    throw badRequest(
      `The embedding model ${model.display_name || model.model_name} failed: ${describeError(e).split('\n')[0]}`,
    );
  }
}

/** Orders documents with a reranking model; scores outside 0..1 (logits) are squashed into it. */
export async function rerankWith(
  ctx: ServerContext<unknown>,
  spaceId: string,
  modelId: string,
  query: string,
  documents: string[],
  signal?: AbortSignal,
): Promise<{ index: number; score: number }[]> {
  const models = ctx.optionalService(ModelsService);
  if (!models) throw badRequest('Reranking needs the models extension, which is not running.');
  const model = await models.get(spaceId, modelId);
  if (model.kind !== 'rerank')
    throw badRequest(`The model ${model.display_name || model.model_name} is not a reranking model.`);
  try {
    const order = await (await model.rerank()).rerank(query, documents, { signal });
    return order.map((o) => ({
      index: o.index,
      score: o.score >= 0 && o.score <= 1 ? o.score : 1 / (1 + Math.exp(-o.score)),
    }));
  } catch (e) {
    throw badRequest(
      `The reranking model ${model.display_name || model.model_name} failed: ${describeError(e).split('\n')[0]}`,
    );
  }
}
