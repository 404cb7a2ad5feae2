// @tessera/ext-plugins/shared: the plugin and API shapes (Coze's field names and numeric codes) and the
// service other extensions (bot skills, MCP) use to list and call published plugin APIs.
import { defineHookPoint, defineRegistryPoint, defineService, httpUrl } from '@tessera/sdk';
import type { ComponentType } from 'react';
import type { FieldDecl } from '@tessera/workflow-sdk';
import { z } from 'zod';

export const ParameterType = { String: 1, Integer: 2, Number: 3, Object: 4, Array: 5, Bool: 6 } as const;
export const ParameterLocation = { Path: 1, Query: 2, Body: 3, Header: 4 } as const;
export const APIMethod = { GET: 1, POST: 2, PUT: 3, DELETE: 4, PATCH: 5 } as const;
export const AuthorizationType = { None: 0, Service: 1, OAuth: 3 } as const;
export const ServiceAuthSubType = { ApiKey: 0, OAuthAuthorizationCode: 4 } as const;
export const AuthorizationServiceLocation = { Header: 1, Query: 2 } as const;
export const APIDebugStatus = { DebugWaiting: 0, DebugPassed: 1 } as const;
export const OnlineStatus = { Offline: 0, Online: 1 } as const;
export const METHOD_NAMES: Record<number, string> = { 1: 'GET', 2: 'POST', 3: 'PUT', 4: 'DELETE', 5: 'PATCH' };

/** A request or response parameter of an API; objects and arrays nest (`sub_parameters`; an array's one sub-parameter is its item). */
export interface APIParameter {
  id?: string;
  name: string;
  desc?: string;
  type: number;
  sub_type?: number;
  location?: number;
  is_required?: boolean;
  sub_parameters?: APIParameter[];
  global_default?: string;
  global_disable?: boolean;
}
export const APIParameterSchema: z.ZodType<APIParameter> = z.lazy(() =>
  z.object({
    id: z.string().max(64).optional(),
    name: z.string().min(1, 'Give each parameter a name.').max(100),
    desc: z.string().max(2000).optional(),
    type: z.number().int().min(1).max(6),
    sub_type: z.number().int().min(1).max(6).optional(),
    location: z.number().int().min(1).max(4).optional(),
    is_required: z.boolean().optional(),
    sub_parameters: z.array(APIParameterSchema).max(200).optional(),
    global_default: z.string().max(10_000).optional(),
    global_disable: z.boolean().optional(),
  }),
);

export const CommonParams = z.partialRecord(
  z.enum(['1', '2', '3', '4']),
  z.array(z.object({ name: z.string().min(1).max(100), value: z.string().max(4000) })).max(50),
);
export type CommonParams = z.infer<typeof CommonParams>;

/** OAuth 2.0 authorization-code settings of a plugin (oauth_info, a JSON string in Coze). */
export const OAuthInfo = z.object({
  client_id: z.string().min(1, 'Give the client id.').max(500),
  client_secret: z.string().max(2000).optional(),
  client_url: httpUrl('the authorization URL'),
  authorization_url: httpUrl('the token URL'),
  scope: z.string().max(2000).default(''),
  authorization_content_type: z
    .enum(['application/json', 'application/x-www-form-urlencoded'])
    .default('application/x-www-form-urlencoded'),
});
export type OAuthInfo = z.infer<typeof OAuthInfo>;

/** What an OpenAPI or Swagger document gives: the server, the auth it asks for, its operations as APIs. */
export interface ImportedApi {
  name: string;
  desc: string;
  path: string;
  method: number;
  request_params: APIParameter[];
  response_params: APIParameter[];
}
export interface ImportedDocument {
  name: string;
  desc: string;
  server_url: string;
  /** What the document's security schemes say, for the user to complete (no secret is in a document). */
  auth:
    | { auth_type: 0 }
    | { auth_type: 1; location: 1 | 2; key: string }
    | { auth_type: 3; client_url: string; authorization_url: string; scope: string };
  apis: ImportedApi[];
  /** Operations left out, with why (unsupported method, no name ...). */
  skipped: string[];
}

/** A published API as workflows and bots use it. */
export interface PublishedTool {
  plugin_id: string;
  plugin_name: string;
  api_id: string;
  name: string;
  desc: string;
  version_name: string;
  request_params: APIParameter[];
  response_params: APIParameter[];
}

/** Coze's debug scenes (the debugger's `bizCtx.trafficScene`): where a call of a draft comes from. */
export const TrafficScene = {
  BotDebug: 10000,
  MultiAgentDebug: 10001,
  ToolDebug: 10002,
  WorkflowDebug: 10003,
} as const;

/** Where a call of a draft comes from: a bot's debug chat (the bot), a workflow's test run (the workflow). */
export interface CallScene {
  scene: number;
  caller_id: string;
}

export interface PluginCall {
  spaceId: string;
  userId: string;
  pluginId: string;
  apiId: string;
  /** A version name, or 'draft' (test runs, the debug panel); default: the latest published version. */
  version?: string;
  input: Record<string, unknown>;
  /** Where a call of the draft comes from: mock data bound there may answer it (`PluginCallMocks`). */
  scene?: CallScene;
  signal?: AbortSignal;
}
/** The mock rule that answered a call instead of the API. */
export interface MockHit {
  mock_set_id: string;
  rule_id: string;
  rule_name: string;
}
export type PluginCallResult =
  | { status: 'ok'; output: unknown; http_status: number; mock?: MockHit }
  /** The plugin uses OAuth and this user has not authorised it yet (or the grant was revoked). */
  | { status: 'needs_auth'; plugin_id: string; plugin_name: string; authorize_url: string };

export interface Plugins {
  /** The space's published APIs (enabled ones) at their latest version. */
  tools(spaceId: string): Promise<PublishedTool[]>;
  tool(spaceId: string, pluginId: string, apiId: string, version?: string): Promise<PublishedTool | undefined>;
  call(call: PluginCall): Promise<PluginCallResult>;
}
/** A call of a draft API that mock data may answer. */
export interface PluginMockQuery {
  spaceId: string;
  userId: string;
  pluginId: string;
  apiId: string;
  input: Record<string, unknown>;
  scene: CallScene;
}
/**
 * Answers a call of a plugin API's draft from a debug scene (a bot's debug chat, a workflow's test run) instead of the
 * API: the debugger's mock sets bound there. Bail: the first tap that answers wins; undefined lets the API answer.
 * Never asked for a published version: published bots and runs always call the API.
 */
export const PluginCallMocks = defineHookPoint<[PluginMockQuery], (MockHit & { output: unknown }) | undefined>({
  id: 'plugins.callMocks',
  owner: 'plugins',
  kind: 'bail',
  description: "Mock answers for calls of a plugin API's draft from a debug scene (the debugger's mock sets).",
  args: ['query'],
});

export const PluginsService = defineService<Plugins>({
  id: 'plugins.service',
  owner: 'plugins',
  description: 'Published plugin APIs: list and call them (auth, common params and the outbound guard applied).',
});

/** JSON Schema of an API's request parameters (the arguments a model or an MCP client gives). */
export function paramsToJsonSchema(params: APIParameter[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    if (p.global_disable) continue;
    properties[p.name] = paramSchema(p);
    if (p.is_required) required.push(p.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function paramSchema(p: APIParameter): Record<string, unknown> {
  const desc = p.desc ? { description: p.desc } : {};
  switch (p.type) {
    case ParameterType.Integer:
      return { type: 'integer', ...desc };
    case ParameterType.Number:
      return { type: 'number', ...desc };
    case ParameterType.Bool:
      return { type: 'boolean', ...desc };
    case ParameterType.Object:
      return { ...paramsToJsonSchema(p.sub_parameters ?? []), ...desc };
    case ParameterType.Array: {
      const item = p.sub_parameters?.[0];
      return {
        type: 'array',
        items: item ? paramSchema(item) : p.sub_type ? paramSchema({ name: 'item', type: p.sub_type }) : {},
        ...desc,
      };
    }
    default:
      return { type: 'string', ...desc };
  }
}

const FIELD: Record<number, FieldDecl['type']> = {
  [ParameterType.String]: 'string',
  [ParameterType.Integer]: 'integer',
  [ParameterType.Number]: 'number',
  [ParameterType.Object]: 'object',
  [ParameterType.Array]: 'array',
  [ParameterType.Bool]: 'boolean',
};
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An API's response parameters as a node's outputs (names a canvas cannot reference are left out). */
export function paramsToFields(params: APIParameter[]): FieldDecl[] {
  return params
    .filter((p) => NAME.test(p.name))
    .map((p) => {
      const f: FieldDecl = {
        name: p.name,
        type: FIELD[p.type] ?? 'string',
        ...(p.desc ? { description: p.desc.slice(0, 1000) } : {}),
      };
      if (p.type === ParameterType.Array)
        f.items = FIELD[p.sub_parameters?.[0]?.type ?? p.sub_type ?? ParameterType.String] ?? 'string';
      if (p.type === ParameterType.Object && p.sub_parameters?.length) f.children = paramsToFields(p.sub_parameters);
      return f;
    });
}

/** What a section of an API's debug panel is given. */
export interface ApiDebugSectionProps {
  spaceId: string;
  pluginId: string;
  apiId: string;
  apiName: string;
  /** The API's response parameters (the shape its answers take). */
  responseParams: APIParameter[];
}
/**
 * A section of the plugin editor's debug panel of an API, under the call and its result (the debugger's mock sets).
 * Client-side registrations; the token is in the contract so that extensions for which plugins is optional draw it.
 */
export interface ApiDebugSection {
  key: string;
  order?: number;
  Component: ComponentType<ApiDebugSectionProps>;
}
export const ApiDebugSections = defineRegistryPoint<ApiDebugSection>({
  id: 'plugins.apiDebugSections',
  owner: 'plugins',
  description: "Sections of an API's debug panel in the plugin editor (mock sets ...).",
  key: (s) => s.key,
});
