import { ApiError, ErrorCode, badRequest, notFound, httpUrl } from '@tessera/sdk';
import {
  LocalCache,
  OutboundHttpService,
  SecretsService,
  defineExtension,
  describeOutboundError,
  type ServerContext,
} from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  MODEL_KINDS,
  ModelProviders,
  ModelsService,
  type ModelInfo,
  type ModelKind,
  type ModelProviderDefinition,
  type Models,
  type ProviderCredentials,
  type ProviderFetch,
  type ResolvedModel,
} from '../shared/index.ts';

const Capabilities = z
  .object({
    function_call: z.boolean().default(false),
    json_output: z.boolean().default(false),
    vision: z.boolean().default(false),
    reasoning: z.boolean().default(false),
  })
  .default({ function_call: false, json_output: false, vision: false, reasoning: false });
const Params = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
  })
  .default({});
const Kind = z.enum(MODEL_KINDS);
const Id = z.string().min(1).max(32);
const now = () => new Date().toISOString();

interface CredentialRow {
  id: string;
  scope: 'space' | 'platform';
  space_id: string;
  provider: string;
  name: string;
  base_url: string;
  secret: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

interface ModelRow {
  id: string;
  credential_id: string;
  scope: 'space' | 'platform';
  space_id: string;
  model_name: string;
  display_name: string;
  kind: ModelKind;
  enabled: number;
  capabilities: string;
  default_params: string;
  created_at: string;
  updated_at: string;
  /** The default of its kind in its space (or on the platform): what a new bot takes. */
  is_default?: number;
  deprecated?: number;
  successor_id?: string;
}

const modelInfo = (m: ModelRow, provider: string): ModelInfo => ({
  model_id: m.id,
  model_name: m.model_name,
  display_name: m.display_name,
  kind: m.kind,
  provider,
  credential_id: m.credential_id,
  scope: m.scope,
  enabled: !!Number(m.enabled),
  capabilities: JSON.parse(m.capabilities),
  default_params: JSON.parse(m.default_params),
  is_default: !!Number(m.is_default ?? 0),
  deprecated: !!Number(m.deprecated ?? 0),
  successor_id: m.successor_id ?? '',
});

export default defineExtension({
  id: 'models',
  register(ctx) {
    ctx.migrations([
      {
        name: '0001_models',
        up: async (db: Kysely<any>) => {
          await db.schema
            .createTable('models_credential')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('scope', 'varchar(16)', (c) => c.notNull())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('provider', 'varchar(64)', (c) => c.notNull())
            .addColumn('name', 'varchar(100)', (c) => c.notNull())
            .addColumn('base_url', 'varchar(2000)', (c) => c.notNull().defaultTo(''))
            .addColumn('secret', 'text', (c) => c.notNull())
            .addColumn('created_by', 'varchar(32)', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .execute();
          await db.schema
            .createTable('models_model')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('credential_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('scope', 'varchar(16)', (c) => c.notNull())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('model_name', 'varchar(200)', (c) => c.notNull())
            .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
            .addColumn('kind', 'varchar(16)', (c) => c.notNull())
            .addColumn('enabled', 'integer', (c) => c.notNull())
            .addColumn('capabilities', 'text', (c) => c.notNull())
            .addColumn('default_params', 'text', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
            .execute();
          await db.schema.createIndex('models_model_space').on('models_model').columns(['space_id', 'kind']).execute();
          await db.schema
            .createTable('models_usage')
            .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
            .addColumn('space_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('model_id', 'varchar(32)', (c) => c.notNull())
            .addColumn('source', 'varchar(32)', (c) => c.notNull())
            .addColumn('run_id', 'varchar(32)')
            .addColumn('conversation_id', 'varchar(32)')
            .addColumn('input_tokens', 'integer', (c) => c.notNull())
            .addColumn('output_tokens', 'integer', (c) => c.notNull())
            .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
            .execute();
          await db.schema
            .createIndex('models_usage_space')
            .on('models_usage')
            .columns(['space_id', 'model_id', 'created_at'])
            .execute();
        },
      },
      {
        name: '0002_models_default',
        up: async (db: Kysely<any>) => {
          await db.schema
            .alterTable('models_model')
            .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
        },
      },
      {
        name: '0003_models_successor',
        up: async (db: Kysely<any>) => {
          await db.schema
            .alterTable('models_model')
            .addColumn('deprecated', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
          await db.schema
            .alterTable('models_model')
            .addColumn('successor_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
            .execute();
        },
      },
    ]);

    const service = makeService(ctx);
    ctx.provide(ModelsService, service.api);
    registerRoutes(ctx, service);
  },
});

function makeService(ctx: ServerContext<unknown>) {
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
    const c = (await ctx.db.selectFrom('models_credential').selectAll().where('id', '=', id).executeTakeFirst()) as
      CredentialRow | undefined;
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
    const row = (await ctx.db
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
      .executeTakeFirst()) as (ModelRow & Record<string, string>) | undefined;
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
      scope: row.c_scope as CredentialRow['scope'],
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
      let q = ctx.db
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
      const rows = (await q.orderBy('models_model.created_at').execute()) as (ModelRow & { provider: string })[];
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
      await ctx.db
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

type Service = ReturnType<typeof makeService>;

function credentialView(c: CredentialRow, secretsDecrypt: (s: string) => string) {
  let masked = '';
  try {
    const key = (JSON.parse(secretsDecrypt(c.secret)) as ProviderCredentials).api_key;
    masked = key ? `****${String(key).slice(-4)}` : '';
  } catch {
    masked = '****';
  }
  return {
    credential_id: c.id,
    scope: c.scope,
    provider: c.provider,
    name: c.name,
    base_url: c.base_url,
    api_key_masked: masked,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

function registerRoutes(ctx: ServerContext<unknown>, s: Service) {
  const space = '/api/model_manage/v1/spaces/:space_id';
  const inSpace = { space: { from: 'params' as const, field: 'space_id' } };
  const admin = { ...inSpace, role: 'admin' as const };
  const SpaceParams = z.object({ space_id: Id });

  // Both families share handlers: a space's own credentials and models (admins), and the platform's (platform admins).
  const scopes = [
    { prefix: space, auth: admin, readAuth: inSpace, params: SpaceParams, scope: 'space' as const },
    {
      prefix: '/api/model_manage/v1/platform',
      auth: 'platformAdmin' as const,
      readAuth: 'platformAdmin' as const,
      params: undefined,
      scope: 'platform' as const,
    },
  ];
  for (const sc of scopes) {
    const spaceOf = (params: any) => (sc.scope === 'space' ? String(params.space_id) : '');
    // A space's credential may not point at private, loopback or metadata addresses: refused when
    // saved, not only when used (platform credentials may: a local model server).
    const reachable = async (baseUrl: string | undefined) => {
      if (!baseUrl || sc.scope !== 'space') return;
      await ctx
        .service(OutboundHttpService)
        .check(baseUrl)
        .catch((e: Error) => {
          throw badRequest(`Base URL refused: ${e.message}`, { field: 'base_url' });
        });
    };
    /** A model of this scope (and space), or a 404. */
    const ownModel = async (id: string, params: any) => {
      const m = (await ctx.db
        .selectFrom('models_model')
        .selectAll()
        .where('id', '=', id)
        .where('scope', '=', sc.scope)
        .where('space_id', '=', spaceOf(params))
        .executeTakeFirst()) as ModelRow | undefined;
      if (!m) throw notFound('This model does not exist here.');
      return m;
    };
    const own = async (id: string, params: any) => {
      const c = await s.credential(id);
      if (c.scope !== sc.scope || c.space_id !== spaceOf(params))
        throw notFound('This model credential does not exist here.');
      return c;
    };
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/credential/create`,
      auth: sc.auth,
      summary: `Add a provider credential (${sc.scope}); the key is encrypted and never returned`,
      params: sc.params,
      body: z.object({
        provider: z.string().min(1),
        name: z.string().trim().min(1).max(100),
        base_url: httpUrl('the base URL').optional().or(z.literal('')),
        api_key: z.string().max(10_000).optional(),
        extra: z.record(z.string(), z.string().max(2000)).optional(),
      }),
      handler: async ({ params, body, caller }) => {
        const p = s.provider(body.provider);
        await reachable(body.base_url);
        for (const f of p.fields)
          if (
            f.required &&
            !(f.name === 'api_key' ? body.api_key : f.name === 'base_url' ? body.base_url : body.extra?.[f.name])
          )
            throw badRequest(`The provider ${p.label['en-US']} needs ${f.label['en-US']}.`);
        const row: CredentialRow = {
          id: ctx.host.newId(),
          scope: sc.scope,
          space_id: spaceOf(params),
          provider: body.provider,
          name: body.name,
          base_url: body.base_url ?? '',
          secret: s.secrets().encrypt(JSON.stringify({ api_key: body.api_key ?? '', ...body.extra })),
          created_by: caller!.userId,
          created_at: now(),
          updated_at: now(),
        };
        await ctx.db.insertInto('models_credential').values(row).execute();
        return credentialView(row, (x) => s.secrets().decrypt(x));
      },
    });
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/credential/update`,
      auth: sc.auth,
      summary: 'Rename, change the base URL, or replace the key (an empty key keeps the stored one)',
      params: sc.params,
      body: z.object({
        credential_id: Id,
        name: z.string().trim().min(1).max(100).optional(),
        base_url: httpUrl('the base URL').optional().or(z.literal('')),
        api_key: z.string().max(10_000).optional(),
      }),
      handler: async ({ params, body }) => {
        const c = await own(body.credential_id, params);
        await reachable(body.base_url);
        const secret = body.api_key
          ? s.secrets().encrypt(JSON.stringify({ ...JSON.parse(s.secrets().decrypt(c.secret)), api_key: body.api_key }))
          : c.secret;
        await ctx.db
          .updateTable('models_credential')
          .set({
            ...(body.name ? { name: body.name } : {}),
            ...(body.base_url !== undefined ? { base_url: body.base_url } : {}),
            secret,
            updated_at: now(),
          })
          .where('id', '=', c.id)
          .execute();
        s.forget();
        return credentialView(await s.credential(c.id), (x) => s.secrets().decrypt(x));
      },
    });
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/credential/delete`,
      auth: sc.auth,
      summary: 'Remove a credential and its models',
      params: sc.params,
      body: z.object({ credential_id: Id }),
      handler: async ({ params, body }) => {
        const c = await own(body.credential_id, params);
        await ctx.db.deleteFrom('models_model').where('credential_id', '=', c.id).execute();
        await ctx.db.deleteFrom('models_credential').where('id', '=', c.id).execute();
        s.forget();
        return null;
      },
    });
    ctx.route({
      method: 'GET',
      path: `${sc.prefix}/credential/list`,
      auth: sc.readAuth,
      summary: 'Credentials (keys masked)',
      params: sc.params,
      handler: async ({ params }) => {
        const rows = (await ctx.db
          .selectFrom('models_credential')
          .selectAll()
          .where('scope', '=', sc.scope)
          .where('space_id', '=', spaceOf(params))
          .orderBy('created_at')
          .execute()) as CredentialRow[];
        return { credentials: rows.map((r) => credentialView(r, (x) => s.secrets().decrypt(x))) };
      },
    });
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/credential/test`,
      auth: sc.auth,
      summary: "Test a credential: list the provider's models, or send a one-word chat to a model",
      params: sc.params,
      body: z.object({ credential_id: Id, model_name: z.string().max(200).optional() }),
      handler: async ({ params, body, signal }) => {
        const c = await own(body.credential_id, params);
        const p = s.provider(c.provider);
        const began = performance.now();
        try {
          if (body.model_name) {
            const { generateText } = await import('ai');
            const r = await generateText({
              model: await p.chat(s.credentials(c), body.model_name, s.fetchFor(c)),
              prompt: 'Reply with OK.',
              maxOutputTokens: 8,
              abortSignal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
              maxRetries: 0,
            });
            return { ok: true, latency_ms: Math.round(performance.now() - began), reply: r.text.slice(0, 200) };
          }
          if (!p.listModels) throw new Error('Give a model name to test: this provider does not list its models.');
          const models = await p.listModels(s.credentials(c), s.fetchFor(c));
          return { ok: true, latency_ms: Math.round(performance.now() - began), models };
        } catch (e) {
          // Say what failed (DNS, refused, TLS, 401, 404 ...), naming the host, as a run's error does.
          return {
            ok: false,
            latency_ms: Math.round(performance.now() - began),
            error: describeOutboundError(e, c.base_url || p.defaultBaseUrl),
          };
        }
      },
    });
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/model/create`,
      auth: sc.auth,
      summary: 'Add a model of a credential, with its capabilities and default parameters',
      params: sc.params,
      body: z.object({
        credential_id: Id,
        model_name: z.string().trim().min(1).max(200),
        display_name: z.string().trim().max(200).optional(),
        kind: Kind.default('chat'),
        capabilities: Capabilities,
        default_params: Params,
        enabled: z.boolean().default(true),
      }),
      handler: async ({ params, body }) => {
        const c = await own(body.credential_id, params);
        if (!s.provider(c.provider).kinds.includes(body.kind))
          throw badRequest(`The provider '${c.provider}' has no ${body.kind} models.`);
        const row: ModelRow = {
          id: ctx.host.newId(),
          credential_id: c.id,
          scope: sc.scope,
          space_id: spaceOf(params),
          model_name: body.model_name,
          display_name: body.display_name || body.model_name,
          kind: body.kind,
          enabled: body.enabled ? 1 : 0,
          capabilities: JSON.stringify(body.capabilities),
          default_params: JSON.stringify(body.default_params),
          created_at: now(),
          updated_at: now(),
        };
        await ctx.db.insertInto('models_model').values(row).execute();
        return modelInfo(row, c.provider);
      },
    });
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/model/batch_create`,
      auth: sc.auth,
      summary:
        'Add several models of a credential at once (those a connection test found); names already added are skipped',
      params: sc.params,
      body: z.object({
        credential_id: Id,
        models: z
          .array(z.object({ model_name: z.string().trim().min(1).max(200), kind: Kind.default('chat') }))
          .min(1)
          .max(500),
      }),
      handler: async ({ params, body }) => {
        const c = await own(body.credential_id, params);
        const kinds = s.provider(c.provider).kinds;
        const have = new Set(
          (
            await ctx.db.selectFrom('models_model').select('model_name').where('credential_id', '=', c.id).execute()
          ).map((r) => r.model_name as string),
        );
        const rows: ModelRow[] = [];
        for (const m of body.models) {
          if (have.has(m.model_name) || !kinds.includes(m.kind)) continue;
          have.add(m.model_name);
          rows.push({
            id: ctx.host.newId(),
            credential_id: c.id,
            scope: sc.scope,
            space_id: spaceOf(params),
            model_name: m.model_name,
            display_name: m.model_name,
            kind: m.kind,
            enabled: 1,
            capabilities: JSON.stringify(Capabilities.parse({})),
            default_params: '{}',
            created_at: now(),
            updated_at: now(),
          });
        }
        if (rows.length) await ctx.db.insertInto('models_model').values(rows).execute();
        s.forget();
        return { added: rows.map((r) => modelInfo(r, c.provider)), skipped: body.models.length - rows.length };
      },
    });
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/model/update`,
      auth: sc.auth,
      summary:
        'Enable or disable a model, rename it, change capabilities or default parameters, deprecate it (with a successor that answers in its place)',
      params: sc.params,
      body: z.object({
        model_id: Id,
        display_name: z.string().trim().min(1).max(200).optional(),
        enabled: z.boolean().optional(),
        capabilities: Capabilities.optional(),
        default_params: Params.optional(),
        deprecated: z.boolean().optional(),
        /** '' for none: the deprecated model still answers itself. */
        successor_id: z.string().max(32).optional(),
      }),
      handler: async ({ params, body }) => {
        const m = await ownModel(body.model_id, params);
        // The successor's checks load with the first change that needs them.
        if (body.successor_id) await (await import('./successor.ts')).checkSuccessor(ctx.db, m, body.successor_id);
        if (body.enabled === false) await (await import('./successor.ts')).checkNotSuccessor(ctx.db, m.id);
        await ctx.db
          .updateTable('models_model')
          .set({
            ...(body.display_name ? { display_name: body.display_name } : {}),
            ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
            ...(body.deprecated !== undefined ? { deprecated: body.deprecated ? 1 : 0 } : {}),
            ...(body.successor_id !== undefined ? { successor_id: body.successor_id } : {}),
            ...(body.capabilities ? { capabilities: JSON.stringify(body.capabilities) } : {}),
            ...(body.default_params ? { default_params: JSON.stringify(body.default_params) } : {}),
            updated_at: now(),
          })
          .where('id', '=', m.id)
          .execute();
        s.forget();
        const c = await s.credential(m.credential_id);
        return modelInfo(
          (await ctx.db
            .selectFrom('models_model')
            .selectAll()
            .where('id', '=', m.id)
            .executeTakeFirstOrThrow()) as ModelRow,
          c.provider,
        );
      },
    });
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/model/set_default`,
      auth: sc.auth,
      summary: 'Make a model the default of its kind here (new bots take the default chat model)',
      params: sc.params,
      body: z.object({ model_id: Id }),
      handler: async ({ params, body }) => {
        const m = await ownModel(body.model_id, params);
        if (!Number(m.enabled))
          throw badRequest(`The model '${m.display_name}' is disabled; enable it before making it the default.`);
        await ctx.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('models_model')
            .set({ is_default: 0 })
            .where('scope', '=', sc.scope)
            .where('space_id', '=', spaceOf(params))
            .where('kind', '=', m.kind)
            .execute();
          await trx
            .updateTable('models_model')
            .set({ is_default: 1, updated_at: now() })
            .where('id', '=', m.id)
            .execute();
        });
        s.forget();
        const c = await s.credential(m.credential_id);
        return modelInfo({ ...m, is_default: 1 }, c.provider);
      },
    });
    ctx.route({
      method: 'POST',
      path: `${sc.prefix}/model/delete`,
      auth: sc.auth,
      summary: 'Remove a model',
      params: sc.params,
      body: z.object({ model_id: Id }),
      handler: async ({ params, body }) => {
        await (await import('./successor.ts')).checkNotSuccessor(ctx.db, body.model_id);
        await ctx.db
          .deleteFrom('models_model')
          .where('id', '=', body.model_id)
          .where('scope', '=', sc.scope)
          .where('space_id', '=', spaceOf(params))
          .execute();
        s.forget();
        return null;
      },
    });
  }

  // ---- reads of the spec: what a space can use, and usage
  ctx.route({
    method: 'GET',
    path: `${space}/v1/list`,
    auth: inSpace,
    summary: 'Models usable in the space (its own and the platform ones), optionally one kind',
    params: SpaceParams,
    query: z.object({ kind: Kind.optional(), enabled_only: z.enum(['true', 'false']).optional() }),
    handler: async ({ params, query }) => {
      const list = await s.api.list(params.space_id, query.kind);
      return { models: query.enabled_only === 'true' ? list.filter((m) => m.enabled) : list };
    },
  });
  ctx.route({
    method: 'GET',
    path: `${space}/get_model`,
    auth: inSpace,
    summary: 'One model usable in the space',
    params: SpaceParams,
    query: z.object({ model_id: Id }),
    handler: async ({ params, query }) => {
      const m = (await s.api.list(params.space_id)).find((x) => x.model_id === query.model_id);
      if (!m) throw notFound('This model is not available in the space.');
      return m;
    },
  });
  const usage = async (spaceId: string, modelId?: string, days = 30) => {
    let q = ctx.db
      .selectFrom('models_usage')
      .select(['model_id', 'source'])
      .select((eb) => [
        eb.fn.sum('input_tokens').as('input_tokens'),
        eb.fn.sum('output_tokens').as('output_tokens'),
        eb.fn.countAll().as('calls'),
      ])
      .where('space_id', '=', spaceId)
      .where('created_at', '>=', new Date(Date.now() - days * 86400_000).toISOString());
    if (modelId) q = q.where('model_id', '=', modelId);
    const rows = await q.groupBy(['model_id', 'source']).execute();
    return {
      days,
      usage: rows.map((r) => ({
        model_id: r.model_id,
        source: r.source,
        input_tokens: Number(r.input_tokens ?? 0),
        output_tokens: Number(r.output_tokens ?? 0),
        calls: Number(r.calls),
      })),
    };
  };
  ctx.route({
    method: 'GET',
    path: `${space}/get_model_usage`,
    auth: inSpace,
    summary: 'Tokens in and out per model and source over the last days',
    params: SpaceParams,
    query: z.object({ model_id: Id.optional(), days: z.coerce.number().int().min(1).max(365).default(30) }),
    handler: ({ params, query }) => usage(params.space_id, query.model_id, query.days),
  });
  ctx.route({
    method: 'GET',
    path: `${space}/get_model_filter_params`,
    auth: inSpace,
    summary: 'Providers, kinds and capabilities to filter the model list by',
    params: SpaceParams,
    handler: () => ({
      providers: ctx
        .registry(ModelProviders)
        .list()
        .map((p) => ({
          key: p.key,
          label: p.label,
          kinds: p.kinds,
          fields: p.fields,
          default_base_url: p.defaultBaseUrl ?? '',
        })),
      kinds: MODEL_KINDS,
      capabilities: ['function_call', 'json_output', 'vision', 'reasoning'],
    }),
  });
  // The intelligence_api family of spec 001.
  ctx.route({
    method: 'POST',
    path: '/api/intelligence_api/model/list',
    auth: { space: { from: 'body', field: 'space_id' } },
    summary: 'Models usable in the space',
    body: z.object({ space_id: Id, kind: Kind.optional() }),
    handler: async ({ body }) => ({ models: (await s.api.list(body.space_id, body.kind)).filter((m) => m.enabled) }),
  });
  ctx.route({
    method: 'POST',
    path: '/api/intelligence_api/model/info',
    auth: { space: { from: 'body', field: 'space_id' } },
    summary: 'One model',
    body: z.object({ space_id: Id, model_id: Id }),
    handler: async ({ body }) => {
      const m = (await s.api.list(body.space_id)).find((x) => x.model_id === body.model_id);
      if (!m) throw notFound('This model is not available in the space.');
      return m;
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/intelligence_api/model/usage',
    auth: { space: { from: 'body', field: 'space_id' } },
    summary: 'Token usage of the space',
    body: z.object({ space_id: Id, model_id: Id.optional(), days: z.number().int().min(1).max(365).default(30) }),
    handler: ({ body }) => usage(body.space_id, body.model_id, body.days),
  });
}
