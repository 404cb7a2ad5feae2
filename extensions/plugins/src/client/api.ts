// What the plugin pages read from the server.
import type { APIParameter } from '../shared/index.ts';

export type { ImportedDocument as ImportPreview } from '../shared/index.ts';

export interface PluginMeta {
  plugin_id: string;
  space_id: string;
  name: string;
  desc: string;
  icon: { uri: string; url: string };
  url: string;
  auth_type: number[];
  location?: number;
  key?: string;
  service_token?: string;
  oauth_info?: string;
  common_params: Record<string, { name: string; value: string }[]>;
  published: boolean;
  has_unpublished_changes: boolean;
  version_name: string | null;
  update_time: number;
  api_count?: number;
}
export interface ApiInfo {
  plugin_id: string;
  api_id: string;
  name: string;
  desc: string;
  path: string;
  method: number;
  request_params: APIParameter[];
  response_params: APIParameter[];
  disabled: boolean;
  debug_status: number;
  debug_example?: { req_example: string; resp_example: string };
}
export interface PluginInfo {
  meta_info: PluginMeta;
  api_info: ApiInfo[];
  oauth_callback_url?: string;
  authorized?: boolean;
}
export interface DebugResult {
  success: boolean;
  reason: string;
  status_code?: number;
  resp: string;
  request?: { method: string; url: string; headers: Record<string, string>; body: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  duration_ms?: number;
  response_params: APIParameter[];
  needs_auth?: boolean;
  authorize_url?: string;
}
