// The OAuth apps' tables as Kysely sees them, and small helpers every part uses.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, ErrorCode } from '@tessera/sdk';
import type { ClientType } from '../shared/api.ts';

export interface AppRow {
  id: string;
  owner_id: string;
  client_type: ClientType;
  name: string;
  description: string;
  status: 'active' | 'disabled';
  config: string;
  permissions: string;
  created_at: string;
  updated_at: string;
}
export interface SecretRow {
  id: string;
  app_id: string;
  secret_hash: string;
  hint: string;
  created_at: string;
}
export interface KeyRow {
  fingerprint: string;
  app_id: string;
  public_key_pem: string;
  created_at: string;
}
export interface GrantRow {
  id: string;
  app_id: string;
  user_id: string;
  permissions: string;
  workspace_ids: string;
  organizations: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}
export interface RequestRow {
  id: string;
  kind: 'code' | 'device';
  app_id: string;
  user_id: string;
  redirect_uri: string;
  state: string;
  code_challenge: string;
  challenge_method: string;
  workspace_id: string;
  device_code_hash: string | null;
  user_code: string | null;
  /** pending, approved, denied, used */
  status: string;
  grant_id: string;
  interval_ms: number;
  last_poll_at: string | null;
  expires_at: string;
  created_at: string;
}
export interface CodeRow {
  code_hash: string;
  app_id: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  challenge_method: string;
  expires_at: string;
  used_at: string | null;
}
export interface TokenRow {
  token_hash: string;
  id: string;
  kind: 'access' | 'refresh';
  app_id: string;
  grant_id: string;
  user_id: string;
  session_name: string;
  origin: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}
export interface OAuthDb {
  oauth_app: AppRow;
  oauth_app_secret: SecretRow;
  oauth_app_key: KeyRow;
  oauth_grant: GrantRow;
  oauth_request: RequestRow;
  oauth_code: CodeRow;
  oauth_token: TokenRow;
  oauth_jti: { jti: string; app_id: string; expires_at: string };
}

export const iso = (ms = Date.now()) => new Date(ms).toISOString();
export const secs = (v: string | null | undefined) => (v ? Math.floor(Date.parse(v) / 1000) : 0);
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** A secret with a recognisable prefix: 'oat_' access tokens, 'ort_' refresh tokens, 'ocs_' client secrets. */
export const newSecret = (prefix: string, bytes = 32) => `${prefix}_${randomBytes(bytes).toString('base64url')}`;
export const ACCESS_PREFIX = 'oat';
export const REFRESH_PREFIX = 'ort';
export const SECRET_PREFIX = 'ocs';

export const strings = (text: string): string[] => {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/** A refusal with its text in the studio's languages (ErrorTexts key `oauth_apps.<key>`). */
export const refuse = (status: 400 | 403 | 404 | 409, msg: string, key: string, params: Record<string, string> = {}) =>
  new ApiError(
    status,
    status === 404
      ? ErrorCode.NOT_FOUND
      : status === 403
        ? ErrorCode.FORBIDDEN
        : status === 409
          ? ErrorCode.CONFLICT
          : ErrorCode.INVALID_PARAMS,
    msg,
    '',
    { text: { key: `oauth_apps.${key}`, params } },
  );
