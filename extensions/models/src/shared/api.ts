// The models extension's calls (spec 001 "Intelligence" model_manage and intelligence_api): a space's credentials and
// models (its admins), the platform's (platform admins: the same calls under /platform), what a space can use, and
// usage. One contract for the routes, the pages and /openapi.json.
import { defineEndpoint, httpUrl } from '@tessera/sdk';
import { z } from 'zod';
import { MODEL_KINDS, type ModelInfo } from './index.ts';

const Id = z.string().min(1).max(32);
export const Kind = z.enum(MODEL_KINDS);

export const Capabilities = z
  .object({
    function_call: z.boolean().default(false),
    json_output: z.boolean().default(false),
    vision: z.boolean().default(false),
    reasoning: z.boolean().default(false),
  })
  .default({ function_call: false, json_output: false, vision: false, reasoning: false });
export const Params = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
  })
  .default({});

export const ModelView = z.object({
  model_id: z.string(),
  model_name: z.string(),
  display_name: z.string(),
  kind: Kind,
  provider: z.string(),
  credential_id: z.string(),
  scope: z.enum(['space', 'platform']),
  enabled: z.boolean(),
  capabilities: z.object({
    function_call: z.boolean(),
    json_output: z.boolean(),
    vision: z.boolean(),
    reasoning: z.boolean(),
  }),
  default_params: z.object({
    temperature: z.number().optional(),
    top_p: z.number().optional(),
    max_tokens: z.number().optional(),
  }),
  is_default: z.boolean(),
  deprecated: z.boolean(),
  successor_id: z.string(),
}) satisfies z.ZodType<ModelInfo>;

export const CredentialView = z.object({
  credential_id: z.string(),
  scope: z.enum(['space', 'platform']),
  provider: z.string(),
  name: z.string(),
  base_url: z.string(),
  /** The key's last four characters ("****abcd"); the key itself is never answered. */
  api_key_masked: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CredentialView = z.output<typeof CredentialView>;

export const CredentialTest = z.object({
  ok: z.boolean(),
  latency_ms: z.number(),
  /** What failed (DNS, refused, TLS, 401 ...), naming the host. */
  error: z.string().optional(),
  /** The provider's models, when it lists them and no model was named. */
  models: z.array(z.object({ name: z.string(), kind: Kind })).optional(),
  /** The named model's answer to a one-word chat. */
  reply: z.string().optional(),
});
export type CredentialTest = z.output<typeof CredentialTest>;

const Label = z.record(z.string(), z.string());
export const ProviderView = z.object({
  key: z.string(),
  label: Label,
  kinds: z.array(Kind),
  fields: z.array(
    z.object({
      name: z.string(),
      label: Label,
      secret: z.boolean().optional(),
      required: z.boolean().optional(),
      placeholder: z.string().optional(),
    }),
  ),
  default_base_url: z.string(),
});
export type ProviderView = z.output<typeof ProviderView>;

export const UsageView = z.object({
  days: z.number(),
  usage: z.array(
    z.object({
      model_id: z.string(),
      source: z.string(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      calls: z.number(),
    }),
  ),
});

const ModelList = z.object({ models: z.array(ModelView) });
const SPACE = '/api/model_manage/v1/spaces/:space_id';
const SpaceParams = z.object({ space_id: Id });
const BaseUrl = httpUrl('the base URL').optional().or(z.literal(''));

/**
 * The calls that manage credentials and models, under a prefix: a space's (`params`: its id in the path) or the
 * platform's. The server registers both families with the same handlers; a page calls the family of its scope.
 */
function managementCalls(scope: 'space' | 'platform', prefix: string, params?: z.ZodType) {
  return {
    CreateCredential: defineEndpoint({
      method: 'POST',
      path: `${prefix}/credential/create`,
      summary: `Add a provider credential (${scope}); the key is encrypted and never returned`,
      params,
      body: z.object({
        provider: z.string().min(1),
        name: z.string().trim().min(1).max(100),
        base_url: BaseUrl,
        api_key: z.string().max(10_000).optional(),
        extra: z.record(z.string(), z.string().max(2000)).optional(),
      }),
      response: CredentialView,
    }),
    UpdateCredential: defineEndpoint({
      method: 'POST',
      path: `${prefix}/credential/update`,
      summary: 'Rename, change the base URL, or replace the key (an empty key keeps the stored one)',
      params,
      body: z.object({
        credential_id: Id,
        name: z.string().trim().min(1).max(100).optional(),
        base_url: BaseUrl,
        api_key: z.string().max(10_000).optional(),
      }),
      response: CredentialView,
    }),
    DeleteCredential: defineEndpoint({
      method: 'POST',
      path: `${prefix}/credential/delete`,
      summary: 'Remove a credential and its models',
      params,
      body: z.object({ credential_id: Id }),
      response: z.null(),
    }),
    ListCredentials: defineEndpoint({
      method: 'GET',
      path: `${prefix}/credential/list`,
      summary: 'Credentials (keys masked)',
      params,
      response: z.object({ credentials: z.array(CredentialView) }),
    }),
    TestCredential: defineEndpoint({
      method: 'POST',
      path: `${prefix}/credential/test`,
      summary: "Test a credential: list the provider's models, or send a one-word chat to a model",
      params,
      body: z.object({ credential_id: Id, model_name: z.string().max(200).optional() }),
      response: CredentialTest,
    }),
    CreateModel: defineEndpoint({
      method: 'POST',
      path: `${prefix}/model/create`,
      summary: 'Add a model of a credential, with its capabilities and default parameters',
      params,
      body: z.object({
        credential_id: Id,
        model_name: z.string().trim().min(1).max(200),
        display_name: z.string().trim().max(200).optional(),
        kind: Kind.default('chat'),
        capabilities: Capabilities,
        default_params: Params,
        enabled: z.boolean().default(true),
      }),
      response: ModelView,
    }),
    BatchCreateModels: defineEndpoint({
      method: 'POST',
      path: `${prefix}/model/batch_create`,
      summary:
        'Add several models of a credential at once (those a connection test found); names already added are skipped',
      params,
      body: z.object({
        credential_id: Id,
        models: z
          .array(z.object({ model_name: z.string().trim().min(1).max(200), kind: Kind.default('chat') }))
          .min(1)
          .max(500),
      }),
      response: z.object({ added: z.array(ModelView), skipped: z.number() }),
    }),
    UpdateModel: defineEndpoint({
      method: 'POST',
      path: `${prefix}/model/update`,
      summary:
        'Enable or disable a model, rename it, change capabilities or default parameters, deprecate it (with a successor that answers in its place)',
      params,
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
      response: ModelView,
    }),
    SetDefaultModel: defineEndpoint({
      method: 'POST',
      path: `${prefix}/model/set_default`,
      summary: 'Make a model the default of its kind here (new bots take the default chat model)',
      params,
      body: z.object({ model_id: Id }),
      response: ModelView,
    }),
    DeleteModel: defineEndpoint({
      method: 'POST',
      path: `${prefix}/model/delete`,
      summary: 'Remove a model',
      params,
      body: z.object({ model_id: Id }),
      response: z.null(),
    }),
  };
}
export type ManagementCalls = ReturnType<typeof managementCalls>;

/** A space's own credentials and models (its admins manage them, its members read them). */
export const SpaceModelCalls = managementCalls('space', SPACE, SpaceParams);
/** The platform's credentials and models, usable in every space (platform administrators). */
export const PlatformModelCalls = managementCalls('platform', '/api/model_manage/v1/platform');

// ---- what a space can use, and usage

export const ListSpaceModels = defineEndpoint({
  method: 'GET',
  path: `${SPACE}/v1/list`,
  summary: 'Models usable in the space (its own and the platform ones), optionally one kind',
  params: SpaceParams,
  query: z.object({ kind: Kind.optional(), enabled_only: z.enum(['true', 'false']).optional() }),
  response: ModelList,
});

export const GetSpaceModel = defineEndpoint({
  method: 'GET',
  path: `${SPACE}/get_model`,
  summary: 'One model usable in the space',
  params: SpaceParams,
  query: z.object({ model_id: Id }),
  response: ModelView,
});

export const GetModelUsage = defineEndpoint({
  method: 'GET',
  path: `${SPACE}/get_model_usage`,
  summary: 'Tokens in and out per model and source over the last days',
  params: SpaceParams,
  query: z.object({ model_id: Id.optional(), days: z.coerce.number().int().min(1).max(365).default(30) }),
  response: UsageView,
});

export const GetModelFilterParams = defineEndpoint({
  method: 'GET',
  path: `${SPACE}/get_model_filter_params`,
  summary: 'Providers, kinds and capabilities to filter the model list by',
  params: SpaceParams,
  response: z.object({ providers: z.array(ProviderView), kinds: z.array(Kind), capabilities: z.array(z.string()) }),
});

// The intelligence_api family of spec 001.
const InSpace = z.object({ space_id: Id });

export const IntelligenceModelList = defineEndpoint({
  method: 'POST',
  path: '/api/intelligence_api/model/list',
  summary: 'Models usable in the space',
  body: InSpace.extend({ kind: Kind.optional() }),
  response: ModelList,
});

export const IntelligenceModelInfo = defineEndpoint({
  method: 'POST',
  path: '/api/intelligence_api/model/info',
  summary: 'One model',
  body: InSpace.extend({ model_id: Id }),
  response: ModelView,
});

export const IntelligenceModelUsage = defineEndpoint({
  method: 'POST',
  path: '/api/intelligence_api/model/usage',
  summary: 'Token usage of the space',
  body: InSpace.extend({ model_id: Id.optional(), days: z.number().int().min(1).max(365).default(30) }),
  response: UsageView,
});
