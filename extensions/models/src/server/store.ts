// The models extension's tables and the views made of their rows.
import { parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { Capabilities, Params, type CredentialView } from '../shared/api.ts';
import type { ModelInfo, ModelKind, ProviderCredentials } from '../shared/index.ts';

export const now = () => new Date().toISOString();

export interface CredentialRow {
  id: string;
  scope: 'space' | 'platform';
  space_id: string;
  provider: string;
  name: string;
  base_url: string;
  /** The provider's fields (the key among them) as JSON, encrypted by the studio's secrets. */
  secret: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface ModelRow {
  id: string;
  credential_id: string;
  scope: 'space' | 'platform';
  space_id: string;
  model_name: string;
  display_name: string;
  kind: ModelKind;
  enabled: number;
  /** JSON of Capabilities */
  capabilities: string;
  /** JSON of Params */
  default_params: string;
  created_at: string;
  updated_at: string;
  /** The default of its kind in its space (or on the platform): what a new bot takes. */
  is_default?: number;
  deprecated?: number;
  successor_id?: string;
}

export interface UsageRow {
  id: string;
  space_id: string;
  model_id: string;
  source: string;
  run_id: string | null;
  conversation_id: string | null;
  input_tokens: number;
  output_tokens: number;
  created_at: string;
}

/** The extension's tables (migrations 0001-0003). */
export interface ModelsDb {
  models_credential: CredentialRow;
  models_model: ModelRow;
  models_usage: UsageRow;
}

export type ModelsKysely = Kysely<ModelsDb>;
export const modelsDb = (ctx: ServerContext<unknown>) => ctx.db as ModelsKysely;

export const modelInfo = (m: ModelRow, provider: string): ModelInfo => ({
  model_id: m.id,
  model_name: m.model_name,
  display_name: m.display_name,
  kind: m.kind,
  provider,
  credential_id: m.credential_id,
  scope: m.scope,
  enabled: !!Number(m.enabled),
  capabilities: parseStoredJson(m.capabilities, "The model's capabilities", Capabilities),
  default_params: parseStoredJson(m.default_params, "The model's default parameters", Params),
  is_default: !!Number(m.is_default ?? 0),
  deprecated: !!Number(m.deprecated ?? 0),
  successor_id: m.successor_id ?? '',
});

export function credentialView(c: CredentialRow, secretsDecrypt: (s: string) => string): CredentialView {
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
