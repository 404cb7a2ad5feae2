// What the plugin developer calls answer (Coze's /api/plugin_api/... field names): plugins with their secrets
// masked, their APIs, published versions, OAuth state. Times are Unix seconds.
import { z } from 'zod';
import { APIParameterSchema, CommonParams } from './index.ts';

const DebugExample = z.object({ req_example: z.string(), resp_example: z.string() });

export const PluginView = z
  .object({
    plugin_id: z.string(),
    space_id: z.string(),
    name: z.string(),
    desc: z.string(),
    icon: z.object({ uri: z.string(), url: z.string() }),
    url: z.string(),
    /** Coze's list of one: 0 none, 1 service token, 3 OAuth */
    auth_type: z.array(z.number()),
    sub_auth_type: z.number(),
    /** Where the service token goes: 1 header, 2 query. */
    location: z.number().optional(),
    key: z.string().optional(),
    /** **** and the last characters */
    service_token: z.string().optional(),
    /** The OAuth settings as JSON, the client secret masked. */
    oauth_info: z.string().optional(),
    common_params: CommonParams,
    creator_id: z.string(),
    edit_version: z.number(),
    published: z.boolean(),
    has_unpublished_changes: z.boolean(),
    /** The last published version's name (null before the first). */
    version_name: z.string().nullable(),
    published_at: z.number().nullable(),
    create_time: z.number(),
    update_time: z.number(),
    api_count: z.number().optional(),
  })
  .passthrough();

export const ApiView = z.object({
  plugin_id: z.string(),
  api_id: z.string(),
  name: z.string(),
  desc: z.string(),
  path: z.string(),
  method: z.number(),
  request_params: z.array(APIParameterSchema),
  response_params: z.array(APIParameterSchema),
  disabled: z.boolean(),
  debug_status: z.number(),
  /** The request and response of the last debug call kept as the API's example. */
  debug_example: DebugExample.optional(),
  online_status: z.number(),
  create_time: z.number(),
});

export const PluginCreated = z.object({ plugin_id: z.string() });
export const PluginPage = z.object({ plugin_list: z.array(PluginView), total: z.number(), has_more: z.boolean() });
export const PluginInfo = z.object({
  meta_info: PluginView,
  api_info: z.array(ApiView),
  oauth_callback_url: z.string().optional(),
  authorized: z.boolean().optional(),
});
export const ApiPage = z.object({ api_info: z.array(ApiView), total: z.number() });
export const ApiCreated = z.object({ api_id: z.string() });
export const Published = z.object({ version_id: z.string(), version_name: z.string() });
export const PublishedList = z.object({
  versions: z.array(
    z.object({
      version_id: z.string(),
      version_name: z.string(),
      version_desc: z.string(),
      api_count: z.number(),
      creator_id: z.string(),
      create_time: z.number(),
    }),
  ),
});
export const OAuthStatus = z.object({ is_oauth: z.boolean(), status: z.number(), content: z.string() });
export const NoAnswer = z.object({});

const Params = z.array(APIParameterSchema);
const ImportedApi = z.object({
  name: z.string(),
  desc: z.string(),
  path: z.string(),
  method: z.number(),
  request_params: Params,
  response_params: Params,
});
/** What a document's security schemes say, for the user to complete (a document holds no secret). */
const AuthHint = z.union([
  z.object({ auth_type: z.literal(0) }),
  z.object({ auth_type: z.literal(1), location: z.union([z.literal(1), z.literal(2)]), key: z.string() }),
  z.object({ auth_type: z.literal(3), client_url: z.string(), authorization_url: z.string(), scope: z.string() }),
]);
/** The APIs an import of an OpenAPI or Swagger document would create, and the operations it leaves out. */
export const DocumentPreview = z.object({
  name: z.string(),
  desc: z.string(),
  server_url: z.string(),
  auth: AuthHint,
  apis: z.array(ImportedApi),
  skipped: z.array(z.string()),
});
export const Registered = z.object({
  plugin_id: z.string(),
  created: z.number(),
  skipped: z.array(z.string()),
  auth_hint: AuthHint,
  /** The plugin's auth is the document's (else it starts without, to be completed). */
  auth_completed: z.boolean(),
});
export const ApisImported = z.object({ created: z.number(), replaced: z.number(), skipped: z.array(z.string()) });

const Exchange = z.object({
  method: z.string(),
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});
/** A debug call of a draft API: the real request and response, and the response parameters inferred from it. */
export const DebugAnswer = z.object({
  success: z.boolean(),
  reason: z.string(),
  resp: z.string(),
  raw_req: z.string().optional(),
  raw_resp: z.string().optional(),
  status_code: z.number().optional(),
  needs_auth: z.boolean().optional(),
  authorize_url: z.string().optional(),
  request: Exchange.optional(),
  response: Exchange.omit({ method: true, url: true }).extend({ status: z.number() }).optional(),
  duration_ms: z.number().optional(),
  response_params: Params,
});

/** The published plugins of a space with their enabled APIs (what workflows and bots can use). */
export const PlaygroundPlugins = z.object({
  plugin_list: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      desc_for_human: z.string(),
      plugin_icon: z.string(),
      auth: z.number(),
      version_name: z.string(),
      space_id: z.string(),
      plugin_apis: z.array(
        z.object({
          api_id: z.string(),
          name: z.string(),
          desc: z.string(),
          plugin_id: z.string(),
          plugin_name: z.string(),
          parameters: Params,
          response_params: Params,
        }),
      ),
    }),
  ),
  total: z.number(),
});
