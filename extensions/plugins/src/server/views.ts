// How plugins and APIs are shown (secrets masked), what a debug response says of the response's shape,
// and the auth columns of a plugin from what a caller sent.
import { badRequest, isRecord, parseCallerJson, parseStoredJson } from '@tessera/sdk';
import {
  AuthorizationType,
  CommonParams,
  OAuthInfo,
  OnlineStatus,
  ParameterType,
  type APIParameter,
} from '../shared/index.ts';
import { z } from 'zod';
import { ApiView, type PluginView } from '../shared/answers.ts';
import { masked, secs, type ApiRow, type PluginRow, type PluginStore } from './store.ts';

/** The auth fields of a plugin's meta as create and update take them. */
export interface AuthInput {
  auth_type?: 0 | 1 | 3;
  location?: number;
  key?: string;
  service_token?: string;
  oauth_info?: string | Record<string, unknown>;
}

const isMask = (v: string | undefined) => !v || /^\*{4}/.test(v);

/** A plugin's auth settings as stored (its secret is apart, encrypted). */
const StoredAuth = z
  .object({ location: z.coerce.number().optional(), key: z.coerce.string().optional() })
  .catchall(z.unknown());

/** A plugin as the studio lists and shows it; secrets masked. */
export function pluginView(
  p: PluginRow,
  store: PluginStore,
  extra: { api_count?: number } = {},
): z.output<typeof PluginView> {
  const auth = parseStoredJson(p.auth, "the plugin's auth", StoredAuth);
  const secret = store.decrypt(p.secret);
  const authType = Number(p.auth_type);
  return {
    plugin_id: p.id,
    space_id: p.space_id,
    name: p.name,
    desc: p.desc,
    icon: { uri: p.icon_uri, url: p.icon_uri },
    url: p.url,
    auth_type: [authType],
    sub_auth_type: authType === AuthorizationType.OAuth ? 4 : 0,
    location: authType === AuthorizationType.Service ? auth.location : undefined,
    key: authType === AuthorizationType.Service ? auth.key : undefined,
    service_token: authType === AuthorizationType.Service ? masked(secret) : undefined,
    oauth_info:
      authType === AuthorizationType.OAuth
        ? JSON.stringify({
            client_id: auth.client_id,
            client_secret: masked(secret),
            client_url: auth.client_url,
            authorization_url: auth.authorization_url,
            scope: auth.scope ?? '',
            authorization_content_type: auth.authorization_content_type,
          })
        : undefined,
    common_params: parseStoredJson(p.common_params, "the plugin's common parameters", CommonParams),
    creator_id: p.creator_id,
    edit_version: Number(p.edit_version),
    published: Number(p.published_edit_version) > 0,
    has_unpublished_changes: Number(p.published_edit_version) !== Number(p.edit_version),
    version_name: p.version_name,
    published_at: secs(p.published_at) || null,
    create_time: secs(p.created_at),
    update_time: secs(p.updated_at),
    ...extra,
  };
}

export function apiView(a: ApiRow, plugin: PluginRow): z.output<typeof ApiView> {
  const published = Number(plugin.published_edit_version) > 0;
  return {
    plugin_id: a.plugin_id,
    api_id: a.id,
    name: a.name,
    desc: a.desc,
    path: a.path,
    method: Number(a.method),
    request_params: JSON.parse(a.request_params) as APIParameter[],
    response_params: JSON.parse(a.response_params) as APIParameter[],
    disabled: !!Number(a.disabled),
    debug_status: Number(a.debug_status),
    debug_example: a.debug_example
      ? parseStoredJson(a.debug_example, "the API's debug example", ApiView.shape.debug_example.unwrap())
      : undefined,
    online_status: published ? OnlineStatus.Online : OnlineStatus.Offline,
    create_time: secs(a.created_at),
  };
}

/** Response parameters inferred from a JSON value (a debug response). */
export function inferParams(value: unknown, depth = 0): APIParameter[] {
  if (!isRecord(value)) return value === undefined ? [] : [inferParam('data', value, depth)];
  return Object.entries(value)
    .slice(0, 200)
    .map(([k, v]) => inferParam(k, v, depth + 1));
}
function inferParam(name: string, v: unknown, depth: number): APIParameter {
  const p: APIParameter = { name: name.slice(0, 100), desc: '', type: ParameterType.String, is_required: false };
  if (typeof v === 'boolean') p.type = ParameterType.Bool;
  else if (typeof v === 'number') p.type = Number.isInteger(v) ? ParameterType.Integer : ParameterType.Number;
  else if (Array.isArray(v)) {
    p.type = ParameterType.Array;
    const item = inferParam('[Array Item]', v[0] ?? '', depth + 1);
    p.sub_type = item.type;
    p.sub_parameters = [item];
  } else if (v && typeof v === 'object') {
    p.type = ParameterType.Object;
    if (depth < 8) p.sub_parameters = inferParams(v, depth);
  }
  return p;
}

/** The auth columns of a plugin from the meta a caller sent (secrets kept when sent masked or empty). */
export function authColumns(
  store: PluginStore,
  m: AuthInput,
  current?: PluginRow,
): { auth_type: number; auth: string; secret: string } {
  const authType = m.auth_type ?? (current ? Number(current.auth_type) : 0);
  const prev = current && Number(current.auth_type) === authType ? current.secret : '';
  if (authType === AuthorizationType.Service) {
    const key = m.key ?? (current ? JSON.parse(current.auth).key : undefined);
    if (!key?.trim())
      throw badRequest('Give the name of the header or query parameter that carries the key.', { field: 'key' });
    const token = isMask(m.service_token) ? (prev ? store.decrypt(prev) : '') : m.service_token!;
    if (!token) throw badRequest('Give the service token or API key.', { field: 'service_token' });
    return {
      auth_type: authType,
      auth: JSON.stringify({
        location: m.location ?? (current ? JSON.parse(current.auth).location : 1) ?? 1,
        key: key.trim(),
      }),
      secret: store.encrypt(token),
    };
  }
  if (authType === AuthorizationType.OAuth) {
    const raw = m.oauth_info ?? (current ? JSON.parse(current.auth) : undefined);
    const obj = typeof raw === 'string' ? parseCallerJson(raw, 'oauth_info') : raw;
    const parsed = OAuthInfo.safeParse(obj);
    if (!parsed.success) throw badRequest(`oauth_info: ${parsed.error.issues[0]?.message}`, { field: 'oauth_info' });
    const { client_secret, ...pub } = parsed.data;
    const secret = isMask(client_secret) ? (prev ? store.decrypt(prev) : '') : client_secret!;
    return { auth_type: authType, auth: JSON.stringify(pub), secret: store.encrypt(secret) };
  }
  return { auth_type: 0, auth: '{}', secret: '' };
}
