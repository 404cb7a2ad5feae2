// The models service: resolves a space's model to a provider's model object (cached per credential version),
// lists what a space can use, completes a prompt and records usage.
import { ApiError, ErrorCode, badRequest, notFound } from '@tessera/sdk';
import { LocalCache, OutboundHttpService, SecretsService, type ServerContext } from '@tessera/sdk/server';
import {
  ModelProviders,
  type ModelKind,
  type ModelProviderDefinition,
  type Models,
  type ProviderCredentials,
  type ProviderFetch,
  type ResolvedModel,
} from '../shared/index.ts';
import { modelInfo, modelsDb, now, type CredentialRow, type ModelRow } from './store.ts';

export function makeService(ctx: ServerContext<unknown>) {
  const db = () => modelsDb(ctx);
  const secrets = () => ctx.service(SecretsService);
  const provider = (key: string) => {
    const p = ctx.registry(ModelProviders).get(key);
    if (!p) throw badRequest(`The model provider '${key}' is not installed (is its extension enabled?).`);
    return p;
  };
  /** Platform credentials are the administrator's: their endpoints may be on the local network (Ollama ...). */
  const fetchFor =
    (cred: CredentialRow): ProviderFetch =>
    (url, init) =>
      ctx.service(OutboundHttpService).fetch(url, { ...init, allowPrivate: cred.scope === 'platform' });
  // Decrypted once per version of a credential (keyed by its id and update time).
  const decrypted = new LocalCache<string, ProviderCredentials>({ max: 1000 });
  const credentials = (cred: CredentialRow): ProviderCredentials => {
    const key = `${cred.id}:${cred.updated_at}:${cred.base_url}`;
    return (
      decrypted.get(key) ??
      decrypted.set(key, {
        ...(JSON.parse(secrets().decrypt(cred.secret)) as ProviderCredentials),
        ...(cred.base_url ? { base_url: cred.base_url } : {}),
      })
    );
  };

  const credential = async (id: string) => {
    const c = await db().selectFrom('models_credential').selectAll().where('id', '=', id).executeTakeFirst();
    if (!c) throw notFound('This model credential does not exist.');
    return c;
  };

  // A provider's model object holds only its settings (building one compiles its response schemas):
  // one is kept per provider, credential version and model name.
  const instances = new LocalCache<string, { of: ModelProviderDefinition; model: unknown }>({ max: 1000 });
  const instance = <T>(
    kind: ModelKind,
    m: ModelRow,
    cred: CredentialRow,
    make: (p: ModelProviderDefinition) => T | Promise<T>,
  ): Promise<T> => {
    const p = provider(cred.provider);
    const key = `${kind}:${cred.id}:${cred.updated_at}:${cred.base_url}:${m.model_name}`;
    const hit = instances.get(key);
    if (hit && hit.of === p) return hit.model as Promise<T>;
    const model = Promise.resolve().then(() => make(p));
    model.catch(() => instances.delete(key)); // a failure is not kept
    return instances.set(key, { of: p, model }).model as Promise<T>;
  };
  const resolve = (m: ModelRow, cred: CredentialRow): ResolvedModel => {
    const info = modelInfo(m, cred.provider);
    return {
      ...info,
      chat: () => instance('chat', m, cred, (p) => p.chat(credentials(cred), m.model_name, fetchFor(cred))),
      embedding: () =>
        instance('embedding', m, cred, (p) => {
          if (!p.embedding) throw badRequest(`The provider '${cred.provider}' has no embedding models.`);
          return p.embedding(credentials(cred), m.model_name, fetchFor(cred));
        }),
      rerank: () =>
        instance('rerank', m, cred, (p) => {
          if (!p.rerank) throw badRequest(`The provider '${cred.provider}' has no reranking models.`);
          return p.rerank(credentials(cred), m.model_name, fetchFor(cred));
        }),
      speech: () =>
        instance('speech', m, cred, (p) => {
          if (!p.speech) throw badRequest(`The provider '${cred.provider}' has no speech models.`);
          return p.speech(credentials(cred), m.model_name, fetchFor(cred));
        }),
      transcription: () =>
        instance('transcription', m, cred, (p) => {
          if (!p.transcription) throw badRequest(`The provider '${cred.provider}' has no transcription models.`);
          return p.transcription(credentials(cred), m.model_name, fetchFor(cred));
        }),
    };
  };

  // Every model call resolves its model: kept in memory, dropped by any change to a model or credential
  // (off with several processes, where another one may change them).
  const resolved = new LocalCache<string, ResolvedModel>({ max: 5000, enabled: !ctx.host.distributed });
  const forget = () => resolved.clear();

  /** A model usable in the space; a deprecated one with a successor resolves to its successor (a short chain at most). */
  const getModel = async (spaceId: string, modelId: string, depth: number): Promise<ResolvedModel> => {
    const key = `${spaceId}:${modelId}`;
    const hit = resolved.get(key);
    if (hit) return hit;
    // One query for the model and its credential.
    const row = await db()
      .selectFrom('models_model as m')
      .innerJoin('models_credential as c', 'c.id', 'm.credential_id')
      .selectAll('m')
      .select([
        'c.id as c_id',
        'c.scope as c_scope',
        'c.space_id as c_space_id',
        'c.provider as c_provider',
        'c.name as c_name',
        'c.base_url as c_base_url',
        'c.secret as c_secret',
        'c.created_by as c_created_by',
        'c.created_at as c_created_at',
        'c.updated_at as c_updated_at',
      ])
      .where('m.id', '=', modelId)
      .where((eb) =>
        eb.or([eb.and([eb('m.scope', '=', 'space'), eb('m.space_id', '=', spaceId)]), eb('m.scope', '=', 'platform')]),
      )
      .executeTakeFirst();
    if (!row)
      throw new ApiError(
        404,
        ErrorCode.NOT_FOUND,
        `The model ${modelId} is not available in this space. Choose another model.`,
      );
    if (Number(row.deprecated) && row.successor_id && depth < 5) {
      const successor = await getModel(spaceId, row.successor_id, depth + 1);
      return resolved.set(key, successor);
    }
    if (!Number(row.enabled))
      throw new ApiError(
        400,
        ErrorCode.INVALID_PARAMS,
        `The model '${row.display_name}' is disabled. Enable it under Models or choose another.`,
      );
    const cred: CredentialRow = {
      id: row.c_id,
      scope: row.c_scope,
      space_id: row.c_space_id,
      provider: row.c_provider,
      name: row.c_name,
      base_url: row.c_base_url,
      secret: row.c_secret,
      created_by: row.c_created_by,
      created_at: row.c_created_at,
      updated_at: row.c_updated_at,
    };
    return resolved.set(key, resolve(row, cred));
  };

  const api: Models = {
    async get(spaceId, modelId) {
      return getModel(spaceId, modelId, 0);
    },
    async list(spaceId, kind) {
      let q = db()
        .selectFrom('models_model')
        .innerJoin('models_credential', 'models_credential.id', 'models_model.credential_id')
        .selectAll('models_model')
        .select('models_credential.provider as provider')
        .where((eb) =>
          eb.or([
            eb.and([eb('models_model.scope', '=', 'space'), eb('models_model.space_id', '=', spaceId)]),
            eb('models_model.scope', '=', 'platform'),
          ]),
        );
      if (kind) q = q.where('models_model.kind', '=', kind);
      const rows = await q.orderBy('models_model.created_at').execute();
      return rows.filter((r) => r.scope === 'platform' || r.space_id === spaceId).map((r) => modelInfo(r, r.provider));
    },
    async defaultModel(spaceId, kind = 'chat') {
      const usable = (await api.list(spaceId, kind)).filter((m) => m.enabled && !m.deprecated);
      return (
        usable.find((m) => m.is_default && m.scope === 'space') ??
        usable.find((m) => m.is_default) ??
        usable.find((m) => m.scope === 'space') ??
        usable[0]
      );
    },
    async complete(r) {
      const model = await api.get(r.spaceId, r.modelId);
      const { generateText } = await import('ai');
      const out = await generateText({
        model: await model.chat(),
        system: r.system,
        messages: r.messages,
        temperature: r.temperature,
        maxOutputTokens: r.maxOutputTokens,
        topP: r.topP,
        maxRetries: 1,
        abortSignal: r.signal,
      });
      const usage = { input_tokens: out.usage?.inputTokens ?? 0, output_tokens: out.usage?.outputTokens ?? 0 };
      await api
        .recordUsage({ space_id: r.spaceId, model_id: model.model_id, source: r.source, ...usage })
        .catch(() => undefined);
      return { text: out.text, ...usage };
    },
    async recordUsage(u) {
      await db()
        .insertInto('models_usage')
        .values({
          id: ctx.host.newId(),
          space_id: u.space_id,
          model_id: u.model_id,
          source: u.source,
          run_id: u.run_id ?? null,
          conversation_id: u.conversation_id ?? null,
          input_tokens: Math.max(0, Math.round(u.input_tokens || 0)),
          output_tokens: Math.max(0, Math.round(u.output_tokens || 0)),
          created_at: now(),
        })
        .execute();
    },
  };
  return { api, provider, credential, credentials, fetchFor, resolve, secrets, forget };
}

export type Service = ReturnType<typeof makeService>;
