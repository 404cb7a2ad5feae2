// OpenID Connect connections: stored with their client secret encrypted, shown masked; which connections sign in an
// email's domain; and each provider's configuration (discovery), read through the guarded outbound HTTP and kept for
// ten minutes.
import { LocalCache, OutboundHttpService, SecretsService, type ServerContext } from '@tessera/sdk/server';
import { EnterpriseDirectoryService } from '@tessera/ext-enterprise/shared';
import { IdentityService } from '@tessera/ext-identity/shared';
import type { Kysely } from 'kysely';
import type * as Oidc from 'openid-client';
import { z } from 'zod';
import { GroupRole, type ConnectionView } from '../shared/api.ts';
import { texts } from './texts.ts';

export interface ConnectionRow {
  id: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  domains: string;
  enforce: number;
  jit: number;
  groups_claim: string;
  group_roles: string;
  status: 'active' | 'disabled';
  enterprise_id: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}
export interface FlowRow {
  id: string;
  connection_id: string;
  binding_hash: string;
  verifier: string;
  nonce: string;
  next: string;
  test_by: string;
  result: string | null;
  expires_at: string;
  used_at: string | null;
}
export interface SsoDb {
  sso_oidc_connection: ConnectionRow;
  sso_oidc_flow: FlowRow;
  sso_oidc_identity: { connection_id: string; subject: string; user_id: string; created_at: string };
}

export const iso = (ms = Date.now()) => new Date(ms).toISOString();
const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
const list = <T>(text: string, schema: z.ZodType<T>): T[] => {
  try {
    return z.array(schema).parse(JSON.parse(text));
  } catch {
    return [];
  }
};
export const domainsOf = (c: ConnectionRow) => list(c.domains, z.string());
export const groupRolesOf = (c: ConnectionRow) => list(c.group_roles, GroupRole);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export class Connections {
  readonly #ctx: ServerContext;
  readonly #allowHttp: boolean;
  readonly #configs = new LocalCache<string, { config: Oidc.Configuration; updated: string }>({
    max: 200,
    ttlMs: 600_000,
  });

  constructor(ctx: ServerContext, allowHttpIssuers: boolean) {
    this.#ctx = ctx;
    this.#allowHttp = allowHttpIssuers;
  }

  get db(): Kysely<SsoDb> {
    return this.#ctx.db;
  }

  get redirectUri(): string {
    return `${this.#ctx.host.publicUrl.replace(/\/$/, '')}/api/sso/oidc/callback`;
  }

  view(c: ConnectionRow): ConnectionView {
    const secrets = this.#ctx.service(SecretsService);
    return {
      id: c.id,
      name: c.name,
      issuer: c.issuer,
      client_id: c.client_id,
      client_secret: c.client_secret ? secrets.mask(secrets.decrypt(c.client_secret)) : '',
      domains: domainsOf(c),
      enforce: !!Number(c.enforce),
      jit: !!Number(c.jit),
      groups_claim: c.groups_claim,
      group_roles: groupRolesOf(c),
      status: c.status,
      enterprise_id: c.enterprise_id ?? '',
      redirect_uri: this.redirectUri,
      created_at: secs(c.created_at),
      updated_at: secs(c.updated_at),
    };
  }

  async get(id: string): Promise<ConnectionRow> {
    const row = await this.db.selectFrom('sso_oidc_connection').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw texts.error(404, 'notFound', { id });
    return row;
  }

  async all(): Promise<ConnectionRow[]> {
    return this.db.selectFrom('sso_oidc_connection').selectAll().orderBy('created_at').execute();
  }

  /** The active connections that sign in this email's domain. */
  async forEmail(email: string): Promise<ConnectionRow[]> {
    const domain = email.split('@')[1]?.toLowerCase();
    if (!domain) return [];
    return (await this.all()).filter((c) => c.status === 'active' && domainsOf(c).includes(domain));
  }

  /**
   * Does the connection's `enforce` close password sign-in for this email: always for the studio's connections; for an
   * enterprise's, only for the accounts of its people (an enterprise does not close the door on others of a domain).
   */
  async enforcedOn(c: ConnectionRow, email: string): Promise<boolean> {
    if (!c.enterprise_id) return true;
    const user = await this.#ctx.service(IdentityService).findByEmail(email);
    const directory = this.#ctx.optionalService(EnterpriseDirectoryService);
    return !!user && !!directory && (await directory.roleOf(c.enterprise_id, user.user_id)) !== undefined;
  }

  secretOf(c: ConnectionRow): string {
    return c.client_secret ? this.#ctx.service(SecretsService).decrypt(c.client_secret) : '';
  }

  encrypt(secret: string): string {
    return secret ? this.#ctx.service(SecretsService).encrypt(secret) : '';
  }

  /** The provider's configuration (its discovery document), read again when the connection changed. */
  async configOf(c: ConnectionRow): Promise<Oidc.Configuration> {
    const hit = this.#configs.get(c.id);
    if (hit && hit.updated === c.updated_at) return hit.config;
    const oidc = await import('openid-client');
    const issuer = new URL(c.issuer);
    const insecure = issuer.protocol === 'http:';
    if (insecure && !this.#allowHttp && !LOOPBACK.has(issuer.hostname))
      throw new Error(`The issuer ${c.issuer} must use https.`);
    const outbound = this.#ctx.service(OutboundHttpService);
    const secret = this.secretOf(c);
    // The administrator chose the provider: it may be on the company's own network.
    const fetch: Oidc.CustomFetch = (url, options) =>
      outbound.fetch(url, { ...(options as RequestInit), allowPrivate: true, timeoutMs: 10_000 });
    const config = await oidc.discovery(
      issuer,
      c.client_id,
      undefined,
      // The secret in the token request's body (client_secret_post): what every provider takes.
      secret ? oidc.ClientSecretPost(secret) : oidc.None(),
      {
        [oidc.customFetch]: fetch,
        // The ID token's signature is checked against the provider's keys, not only its claims.
        execute: insecure
          ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks]
          : [oidc.enableNonRepudiationChecks],
      },
    );
    this.#configs.set(c.id, { config, updated: c.updated_at });
    return config;
  }

  forget(id: string): void {
    this.#configs.delete(id);
  }
}
