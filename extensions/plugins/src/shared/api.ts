// The plugin developer calls (Coze's /api/plugin_api/...: plugins, their APIs, import, debug, publish, OAuth): one
// contract for the routes, the pages and /openapi.json. The answers are in answers.ts.
import { defineEndpoint, imageRef, isHttpUrl } from '@tessera/sdk';
import { z } from 'zod';
import {
  ApiCreated,
  ApiPage,
  ApiView,
  ApisImported,
  DebugAnswer,
  DocumentPreview,
  NoAnswer,
  OAuthStatus,
  PlaygroundPlugins,
  PluginCreated,
  PluginInfo,
  PluginPage,
  PluginView,
  Published,
  PublishedList,
  Registered,
} from './answers.ts';
import { APIParameterSchema, CommonParams } from './index.ts';

export const Id = z.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the plugin a name.').max(100);
const ApiName = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'An API name uses letters, digits and _ and does not start with a digit (the model calls it by this name).',
  )
  .max(64);
const ApiPath = z.string().trim().min(1, 'Give the path.').max(2000).regex(/^\//, 'The path starts with /.');
const Method = z.number().int().min(1).max(5);
const Params = z.array(APIParameterSchema).max(200);
/** The largest OpenAPI or Swagger document read. */
export const MAX_DOC = 2 * 1024 * 1024;

/** A plugin's meta as create and update take it (update: every field optional, nothing defaulted). */
const MetaFields = z
  .object({
    name: Name,
    desc: z.string().max(2000),
    icon_uri: imageRef(),
    url: z
      .string()
      .trim()
      .max(2000)
      .refine((v) => !v || isHttpUrl(v), 'Give the server URL as an http:// or https:// address.'),
    /** Coze sends a list ([0], [1], [3]); a number is taken too. */
    auth_type: z
      .union([z.array(z.number().int()).max(1), z.number().int()])
      .transform((v) => (Array.isArray(v) ? (v[0] ?? 0) : v))
      .pipe(z.union([z.literal(0), z.literal(1), z.literal(3)])),
    sub_auth_type: z.number().int(),
    location: z.number().int().min(1).max(2),
    key: z.string().max(200),
    service_token: z.string().max(4000),
    /** OAuth 2.0 authorization code settings as a JSON string (or an object). */
    oauth_info: z.union([z.string().max(20_000), z.record(z.string(), z.unknown())]),
    common_params: CommonParams,
  })
  .partial();
export const Meta = MetaFields.required({ name: true });
export type Meta = z.infer<typeof Meta>;

/** An API's fields as create and update take them. */
const ApiFields = z.object({
  name: ApiName,
  desc: z.string().max(2000),
  path: ApiPath,
  method: Method,
  request_params: Params,
  response_params: Params,
});
const NewApi = ApiFields.partial({ desc: true, method: true, request_params: true, response_params: true });

export const RegisterPluginMeta = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/register_plugin_meta',
  summary: 'Create a plugin by hand: name, description, icon, server URL, auth, common parameters',
  body: Meta.extend({ space_id: Id }),
  response: PluginCreated,
});

export const PreviewOpenApi = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/preview_openapi',
  summary: 'Read an OpenAPI 3 or Swagger 2 document (JSON or YAML) and show the APIs an import would create',
  body: z.object({ space_id: Id, openapi: z.string().max(MAX_DOC + 1) }),
  response: DocumentPreview,
});

export const RegisterPlugin = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/register',
  summary:
    'Create a plugin from an OpenAPI 3 or Swagger 2 document: its server, auth hint and every operation as an API',
  body: z.object({
    space_id: Id,
    openapi: z.string().max(MAX_DOC + 1),
    name: z.string().trim().max(100).optional(),
    desc: z.string().max(2000).optional(),
    icon_uri: imageRef().optional(),
    service_token: z.string().max(4000).optional(),
    oauth_client_id: z.string().max(500).optional(),
    oauth_client_secret: z.string().max(2000).optional(),
  }),
  response: Registered,
});

export const BatchCreateApi = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/batch_create_api',
  summary:
    'Import the operations of an OpenAPI or Swagger document into a plugin (same method and path: skipped, or replaced)',
  body: z.object({
    space_id: Id,
    plugin_id: Id,
    openapi: z.string().max(MAX_DOC + 1),
    replaced_same_paths: z.boolean().default(false),
  }),
  response: ApisImported,
});

export const UpdatePluginMeta = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/update_plugin_meta',
  summary:
    "Change a plugin's name, description, icon, server URL, auth or common parameters (a secret sent masked or empty is kept)",
  body: MetaFields.extend({ space_id: Id, plugin_id: Id }),
  response: PluginView,
});

export const DeletePlugin = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/del_plugin',
  summary: "Delete a plugin with its APIs, versions and the users' OAuth grants",
  body: z.object({ space_id: Id, plugin_id: Id }),
  response: NoAnswer,
});

export const ListDevPlugins = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/get_dev_plugin_list',
  summary: 'Plugins of a space: search by name, sort, page',
  body: z.object({
    space_id: Id,
    name: z.string().max(100).optional(),
    order_by: z.enum(['update_time', 'create_time', 'name']).default('update_time'),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
    is_publish: z.boolean().optional(),
  }),
  response: PluginPage,
});

export const GetPluginInfo = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/get_plugin_info',
  summary: 'A plugin: meta (secrets masked), APIs, published versions, whether the caller has authorised it',
  body: z.object({ space_id: Id, plugin_id: Id }),
  response: PluginInfo,
});

export const GetPluginApis = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/get_plugin_apis',
  summary: 'The APIs of a plugin, paged',
  body: z.object({
    space_id: Id,
    plugin_id: Id,
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(200).default(100),
  }),
  response: ApiPage,
});

export const CreateApi = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/create_api',
  summary: 'Add an API to a plugin by hand: name, path, method, typed request and response parameters',
  body: NewApi.extend({ space_id: Id, plugin_id: Id }),
  response: ApiCreated,
});

export const UpdateApi = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/update_api',
  summary: 'Change an API (name, path, method, parameters), enable or disable it, or save a debug example',
  body: ApiFields.partial().extend({
    space_id: Id,
    plugin_id: Id,
    api_id: Id,
    disabled: z.boolean().optional(),
    debug_example: z
      .object({ req_example: z.string().max(100_000), resp_example: z.string().max(200_000) })
      .nullable()
      .optional(),
  }),
  response: ApiView,
});

export const DeleteApi = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/delete_api',
  summary: 'Delete an API of a plugin (published versions keep theirs)',
  body: z.object({ space_id: Id, plugin_id: Id, api_id: Id }),
  response: NoAnswer,
});

export const DebugApi = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/debug_api',
  summary:
    'Call an API of the draft with given inputs: the real request and response, and the response parameters inferred from it',
  body: z.object({
    space_id: Id,
    plugin_id: Id,
    api_id: Id,
    parameters: z.union([z.string().max(200_000), z.record(z.string(), z.unknown())]).optional(),
    save_example: z.boolean().default(false),
  }),
  response: DebugAnswer,
});

export const PublishPlugin = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/publish_plugin',
  summary:
    'Publish the plugin with a version name and description: workflows and bots use its enabled APIs as published',
  body: z.object({
    space_id: Id,
    plugin_id: Id,
    version_name: z.string().trim().min(1, 'Give the version a name (v1.0.0).').max(64),
    version_desc: z.string().max(2000).default(''),
  }),
  response: Published,
});

export const ListPublished = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/get_published_list',
  summary: 'The published versions of a plugin, newest first',
  body: z.object({ space_id: Id, plugin_id: Id }),
  response: PublishedList,
});

export const ListPlaygroundPlugins = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/get_playground_plugin_list',
  summary: 'The published plugins of a space with their enabled APIs (what workflows and bots can use)',
  body: z.object({ space_id: Id, name: z.string().max(100).optional() }),
  response: PlaygroundPlugins,
});

export const GetOAuthStatus = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/get_oauth_status',
  summary: 'Whether the caller has authorised an OAuth plugin; if not, the URL of the authorisation page',
  body: z.object({ space_id: Id, plugin_id: Id }),
  response: OAuthStatus,
});

export const RevokeAuthToken = defineEndpoint({
  method: 'POST',
  path: '/api/plugin_api/revoke_auth_token',
  summary: "Forget the caller's OAuth grant for a plugin",
  body: z.object({ space_id: Id, plugin_id: Id }),
  response: NoAnswer,
});
