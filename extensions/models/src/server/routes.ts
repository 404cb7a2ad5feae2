// The models extension's routes, over the contracts of shared/api.ts: both families of management calls (a space's,
// the platform's) share their handlers; then what a space can use, and usage.
import { badRequest, notFound } from '@tessera/sdk';
import { OutboundHttpService, describeOutboundError, type ServerContext } from '@tessera/sdk/server';
import {
  Capabilities,
  GetModelFilterParams,
  GetModelUsage,
  GetSpaceModel,
  IntelligenceModelInfo,
  IntelligenceModelList,
  IntelligenceModelUsage,
  ListSpaceModels,
  PlatformModelCalls,
  SpaceModelCalls,
} from '../shared/api.ts';
import { MODEL_KINDS, ModelProviders } from '../shared/index.ts';
import type { Service } from './service.ts';
import { credentialView, modelInfo, modelsDb, now, type CredentialRow, type ModelRow } from './store.ts';

export function registerRoutes(ctx: ServerContext<unknown>, s: Service) {
  const db = () => modelsDb(ctx);
  const inSpace = { space: { from: 'params' as const, field: 'space_id' } };
  const admin = { ...inSpace, role: 'admin' as const };

  // Both families share handlers: a space's own credentials and models (admins), and the platform's (platform admins).
  const scopes = [
    { calls: SpaceModelCalls, auth: admin, readAuth: inSpace, scope: 'space' as const },
    {
      calls: PlatformModelCalls,
      auth: 'platformAdmin' as const,
      readAuth: 'platformAdmin' as const,
      scope: 'platform' as const,
    },
  ];
  for (const sc of scopes) {
    /** The space a call of this family works in ('' for the platform's): the one its path names. */
    const spaceOf = (req: { spaceId?: string }) => (sc.scope === 'space' ? req.spaceId! : '');
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
    const ownModel = async (id: string, req: { spaceId?: string }) => {
      const m = await db()
        .selectFrom('models_model')
        .selectAll()
        .where('id', '=', id)
        .where('scope', '=', sc.scope)
        .where('space_id', '=', spaceOf(req))
        .executeTakeFirst();
      if (!m) throw notFound('This model does not exist here.');
      return m;
    };
    const own = async (id: string, req: { spaceId?: string }) => {
      const c = await s.credential(id);
      if (c.scope !== sc.scope || c.space_id !== spaceOf(req))
        throw notFound('This model credential does not exist here.');
      return c;
    };
    ctx.route({
      ...sc.calls.CreateCredential,
      auth: sc.auth,
      handler: async (req) => {
        const p = s.provider(req.body.provider);
        await reachable(req.body.base_url);
        for (const f of p.fields)
          if (
            f.required &&
            !(f.name === 'api_key'
              ? req.body.api_key
              : f.name === 'base_url'
                ? req.body.base_url
                : req.body.extra?.[f.name])
          )
            throw badRequest(`The provider ${p.label['en-US']} needs ${f.label['en-US']}.`);
        const row: CredentialRow = {
          id: ctx.host.newId(),
          scope: sc.scope,
          space_id: spaceOf(req),
          provider: req.body.provider,
          name: req.body.name,
          base_url: req.body.base_url ?? '',
          secret: s.secrets().encrypt(JSON.stringify({ api_key: req.body.api_key ?? '', ...req.body.extra })),
          created_by: req.caller!.userId,
          created_at: now(),
          updated_at: now(),
        };
        await db().insertInto('models_credential').values(row).execute();
        return credentialView(row, (x) => s.secrets().decrypt(x));
      },
    });
    ctx.route({
      ...sc.calls.UpdateCredential,
      auth: sc.auth,
      handler: async (req) => {
        const c = await own(req.body.credential_id, req);
        await reachable(req.body.base_url);
        const secret = req.body.api_key
          ? s
              .secrets()
              .encrypt(JSON.stringify({ ...JSON.parse(s.secrets().decrypt(c.secret)), api_key: req.body.api_key }))
          : c.secret;
        await db()
          .updateTable('models_credential')
          .set({
            ...(req.body.name ? { name: req.body.name } : {}),
            ...(req.body.base_url !== undefined ? { base_url: req.body.base_url } : {}),
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
      ...sc.calls.DeleteCredential,
      auth: sc.auth,
      handler: async (req) => {
        const c = await own(req.body.credential_id, req);
        await db().deleteFrom('models_model').where('credential_id', '=', c.id).execute();
        await db().deleteFrom('models_credential').where('id', '=', c.id).execute();
        s.forget();
        return null;
      },
    });
    ctx.route({
      ...sc.calls.ListCredentials,
      auth: sc.readAuth,
      handler: async (req) => {
        const rows = await db()
          .selectFrom('models_credential')
          .selectAll()
          .where('scope', '=', sc.scope)
          .where('space_id', '=', spaceOf(req))
          .orderBy('created_at')
          .execute();
        return { credentials: rows.map((r) => credentialView(r, (x) => s.secrets().decrypt(x))) };
      },
    });
    ctx.route({
      ...sc.calls.TestCredential,
      auth: sc.auth,
      handler: async (req) => {
        const c = await own(req.body.credential_id, req);
        const p = s.provider(c.provider);
        const began = performance.now();
        try {
          if (req.body.model_name) {
            const { generateText } = await import('ai');
            const r = await generateText({
              model: await p.chat(s.credentials(c), req.body.model_name, s.fetchFor(c)),
              prompt: 'Reply with OK.',
              maxOutputTokens: 8,
              abortSignal: AbortSignal.any([req.signal, AbortSignal.timeout(30_000)]),
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
      ...sc.calls.CreateModel,
      auth: sc.auth,
      handler: async (req) => {
        const c = await own(req.body.credential_id, req);
        if (!s.provider(c.provider).kinds.includes(req.body.kind))
          throw badRequest(`The provider '${c.provider}' has no ${req.body.kind} models.`);
        const row: ModelRow = {
          id: ctx.host.newId(),
          credential_id: c.id,
          scope: sc.scope,
          space_id: spaceOf(req),
          model_name: req.body.model_name,
          display_name: req.body.display_name || req.body.model_name,
          kind: req.body.kind,
          enabled: req.body.enabled ? 1 : 0,
          capabilities: JSON.stringify(req.body.capabilities),
          default_params: JSON.stringify(req.body.default_params),
          created_at: now(),
          updated_at: now(),
        };
        await db().insertInto('models_model').values(row).execute();
        return modelInfo(row, c.provider);
      },
    });
    ctx.route({
      ...sc.calls.BatchCreateModels,
      auth: sc.auth,
      handler: async (req) => {
        const c = await own(req.body.credential_id, req);
        const kinds = s.provider(c.provider).kinds;
        const have = new Set(
          (await db().selectFrom('models_model').select('model_name').where('credential_id', '=', c.id).execute()).map(
            (r) => r.model_name,
          ),
        );
        const rows: ModelRow[] = [];
        for (const m of req.body.models) {
          if (have.has(m.model_name) || !kinds.includes(m.kind)) continue;
          have.add(m.model_name);
          rows.push({
            id: ctx.host.newId(),
            credential_id: c.id,
            scope: sc.scope,
            space_id: spaceOf(req),
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
        if (rows.length) await db().insertInto('models_model').values(rows).execute();
        s.forget();
        return { added: rows.map((r) => modelInfo(r, c.provider)), skipped: req.body.models.length - rows.length };
      },
    });
    ctx.route({
      ...sc.calls.UpdateModel,
      auth: sc.auth,
      handler: async (req) => {
        const m = await ownModel(req.body.model_id, req);
        // The successor's checks load with the first change that needs them.
        if (req.body.successor_id)
          await (await import('./successor.ts')).checkSuccessor(db(), m, req.body.successor_id);
        if (req.body.enabled === false) await (await import('./successor.ts')).checkNotSuccessor(db(), m.id);
        await db()
          .updateTable('models_model')
          .set({
            ...(req.body.display_name ? { display_name: req.body.display_name } : {}),
            ...(req.body.enabled !== undefined ? { enabled: req.body.enabled ? 1 : 0 } : {}),
            ...(req.body.deprecated !== undefined ? { deprecated: req.body.deprecated ? 1 : 0 } : {}),
            ...(req.body.successor_id !== undefined ? { successor_id: req.body.successor_id } : {}),
            ...(req.body.capabilities ? { capabilities: JSON.stringify(req.body.capabilities) } : {}),
            ...(req.body.default_params ? { default_params: JSON.stringify(req.body.default_params) } : {}),
            updated_at: now(),
          })
          .where('id', '=', m.id)
          .execute();
        s.forget();
        const c = await s.credential(m.credential_id);
        return modelInfo(
          await db().selectFrom('models_model').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow(),
          c.provider,
        );
      },
    });
    ctx.route({
      ...sc.calls.SetDefaultModel,
      auth: sc.auth,
      handler: async (req) => {
        const m = await ownModel(req.body.model_id, req);
        if (!Number(m.enabled))
          throw badRequest(`The model '${m.display_name}' is disabled; enable it before making it the default.`);
        await db()
          .transaction()
          .execute(async (trx) => {
            await trx
              .updateTable('models_model')
              .set({ is_default: 0 })
              .where('scope', '=', sc.scope)
              .where('space_id', '=', spaceOf(req))
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
      ...sc.calls.DeleteModel,
      auth: sc.auth,
      handler: async (req) => {
        await (await import('./successor.ts')).checkNotSuccessor(db(), req.body.model_id);
        await db()
          .deleteFrom('models_model')
          .where('id', '=', req.body.model_id)
          .where('scope', '=', sc.scope)
          .where('space_id', '=', spaceOf(req))
          .execute();
        s.forget();
        return null;
      },
    });
  }

  // ---- reads of the spec: what a space can use, and usage
  ctx.route({
    ...ListSpaceModels,
    auth: inSpace,
    handler: async ({ params, query }) => {
      const list = await s.api.list(params.space_id, query.kind);
      return { models: query.enabled_only === 'true' ? list.filter((m) => m.enabled) : list };
    },
  });
  ctx.route({
    ...GetSpaceModel,
    auth: inSpace,
    handler: async ({ params, query }) => {
      const m = (await s.api.list(params.space_id)).find((x) => x.model_id === query.model_id);
      if (!m) throw notFound('This model is not available in the space.');
      return m;
    },
  });
  const usage = async (spaceId: string, modelId?: string, days = 30) => {
    let q = db()
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
    ...GetModelUsage,
    auth: inSpace,
    handler: ({ params, query }) => usage(params.space_id, query.model_id, query.days),
  });
  ctx.route({
    ...GetModelFilterParams,
    auth: inSpace,
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
      kinds: [...MODEL_KINDS],
      capabilities: ['function_call', 'json_output', 'vision', 'reasoning'],
    }),
  });
  // The intelligence_api family of spec 001.
  ctx.route({
    ...IntelligenceModelList,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => ({ models: (await s.api.list(body.space_id, body.kind)).filter((m) => m.enabled) }),
  });
  ctx.route({
    ...IntelligenceModelInfo,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => {
      const m = (await s.api.list(body.space_id)).find((x) => x.model_id === body.model_id);
      if (!m) throw notFound('This model is not available in the space.');
      return m;
    },
  });
  ctx.route({
    ...IntelligenceModelUsage,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: ({ body }) => usage(body.space_id, body.model_id, body.days),
  });
}
