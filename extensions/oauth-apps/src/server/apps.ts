// OAuth apps as their owners keep them: the meta (type, permissions, redirect URIs, token lifetimes), client secrets
// (hashed, answered once), public keys of service apps (their fingerprint is a JWT's kid) and a service app's own
// authorization in its owner's spaces. Whatever ends an app's access drops the authenticator's cached tokens at once.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { TokenPermissions, checkTokenPermissions } from '@tessera/ext-identity/shared';
import type { Kysely } from 'kysely';
import { OAuth2Configuration, type AppMeta, type ClientType } from '../shared/api.ts';
import { SECRET_PREFIX, iso, newSecret, refuse, secs, sha256, strings, type AppRow, type OAuthDb } from './db.ts';

/** Drops cached tokens (of an app, a grant ...) when something ends them. */
export type Revoked = (match: { appId?: string; grantId?: string; userId?: string }) => void;

export class AppService {
  readonly #ctx: ServerContext;
  readonly #revoked: Revoked;

  constructor(ctx: ServerContext, revoked: Revoked) {
    this.#ctx = ctx;
    this.#revoked = revoked;
  }

  get db(): Kysely<OAuthDb> {
    return this.#ctx.db;
  }

  config(app: AppRow): OAuth2Configuration {
    try {
      return OAuth2Configuration.parse(JSON.parse(app.config));
    } catch {
      return OAuth2Configuration.parse({});
    }
  }

  /** Every permission named must be one a token can hold (the same list as personal access tokens). */
  checkPermissions(permissions: string[]): string[] {
    return checkTokenPermissions(this.#ctx.registry(TokenPermissions).list(), permissions);
  }

  async create(
    ownerId: string,
    v: {
      name: string;
      description: string;
      clientType: ClientType;
      permissions: string[];
      config?: Partial<OAuth2Configuration>;
    },
  ): Promise<AppMeta> {
    const config = OAuth2Configuration.parse(v.config ?? {});
    this.#checkRedirects(v.clientType, config.redirect_uris);
    const row: AppRow = {
      id: this.#ctx.host.newId(),
      owner_id: ownerId,
      client_type: v.clientType,
      name: v.name,
      description: v.description,
      status: 'active',
      config: JSON.stringify(config),
      permissions: JSON.stringify(this.checkPermissions(v.permissions)),
      created_at: iso(),
      updated_at: iso(),
    };
    await this.db.insertInto('oauth_app').values(row).execute();
    return this.view(row);
  }

  /** The app, when `ownerId` owns it (404 otherwise: another's app is not there for the caller). */
  async mine(appId: string, ownerId: string): Promise<AppRow> {
    const row = await this.db
      .selectFrom('oauth_app')
      .selectAll()
      .where('id', '=', appId)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (!row) throw refuse(404, `No OAuth app ${appId} of yours.`, 'noApp', { appid: appId });
    return row;
  }

  async find(appId: string): Promise<AppRow | undefined> {
    return this.db.selectFrom('oauth_app').selectAll().where('id', '=', appId).executeTakeFirst();
  }

  async list(ownerId: string): Promise<AppMeta[]> {
    const rows = await this.db
      .selectFrom('oauth_app')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('created_at', 'desc')
      .execute();
    return Promise.all(rows.map((r) => this.view(r)));
  }

  async update(
    appId: string,
    ownerId: string,
    v: { name?: string; description?: string; permissions?: string[]; status?: 'active' | 'disabled' },
  ): Promise<AppMeta> {
    const row = await this.mine(appId, ownerId);
    const set: Partial<AppRow> = { updated_at: iso() };
    if (v.name !== undefined) set.name = v.name;
    if (v.description !== undefined) set.description = v.description;
    if (v.permissions !== undefined) set.permissions = JSON.stringify(this.checkPermissions(v.permissions));
    if (v.status !== undefined) set.status = v.status;
    await this.db.updateTable('oauth_app').set(set).where('id', '=', appId).execute();
    // Fewer permissions or a disabled app: tokens already out must see it on their next call.
    if (v.permissions !== undefined || v.status !== undefined) this.#revoked({ appId });
    return this.view({ ...row, ...set });
  }

  async setConfig(appId: string, ownerId: string, config: OAuth2Configuration): Promise<AppMeta> {
    const row = await this.mine(appId, ownerId);
    this.#checkRedirects(row.client_type, config.redirect_uris);
    const set = { config: JSON.stringify(config), updated_at: iso() };
    await this.db.updateTable('oauth_app').set(set).where('id', '=', appId).execute();
    return this.view({ ...row, ...set });
  }

  async remove(appId: string, ownerId: string): Promise<void> {
    await this.mine(appId, ownerId);
    await this.db.transaction().execute(async (tx) => {
      for (const table of [
        'oauth_app_secret',
        'oauth_app_key',
        'oauth_grant',
        'oauth_request',
        'oauth_code',
        'oauth_token',
        'oauth_jti',
      ] as const)
        await tx.deleteFrom(table).where('app_id', '=', appId).execute();
      await tx.deleteFrom('oauth_app').where('id', '=', appId).execute();
    });
    this.#revoked({ appId });
  }

  async createSecret(appId: string, ownerId: string): Promise<{ client_secret_id: string; client_secret: string }> {
    const app = await this.mine(appId, ownerId);
    if (app.client_type !== 'web')
      throw refuse(
        400,
        'Only a web app has client secrets (a page or device app uses PKCE or a device code; a service app signs JWTs).',
        'secretType',
      );
    const count = await this.db
      .selectFrom('oauth_app_secret')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= 5)
      throw refuse(409, 'An app has at most 5 client secrets: delete one first.', 'tooManySecrets');
    const secret = newSecret(SECRET_PREFIX);
    const id = this.#ctx.host.newId();
    await this.db
      .insertInto('oauth_app_secret')
      .values({ id, app_id: appId, secret_hash: sha256(secret), hint: secret.slice(-4), created_at: iso() })
      .execute();
    return { client_secret_id: id, client_secret: secret };
  }

  async deleteSecret(appId: string, ownerId: string, secretId: string): Promise<void> {
    await this.mine(appId, ownerId);
    const r = await this.db
      .deleteFrom('oauth_app_secret')
      .where('app_id', '=', appId)
      .where('id', '=', secretId)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw notFound(`The app has no client secret ${secretId}.`);
  }

  /** Is `secret` one of the app's client secrets? */
  async secretMatches(appId: string, secret: string): Promise<boolean> {
    if (!secret) return false;
    const row = await this.db
      .selectFrom('oauth_app_secret')
      .select('id')
      .where('app_id', '=', appId)
      .where('secret_hash', '=', sha256(secret))
      .executeTakeFirst();
    return !!row;
  }

  async uploadKey(appId: string, ownerId: string, pem: string): Promise<string> {
    const app = await this.mine(appId, ownerId);
    if (app.client_type !== 'service')
      throw refuse(400, 'Only a service app has public keys: it signs its JWTs with the private key.', 'keyType');
    let fingerprint: string;
    try {
      const key = createPublicKey(pem);
      if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ec') throw new Error(key.asymmetricKeyType);
      fingerprint = sha256(key.export({ type: 'spki', format: 'der' }).toString('base64')).slice(0, 40);
    } catch {
      throw refuse(400, 'This is not a public key in PEM form ("-----BEGIN PUBLIC KEY-----", RSA or EC).', 'badKey');
    }
    const count = await this.db
      .selectFrom('oauth_app_key')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('app_id', '=', appId)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= 5)
      throw refuse(409, 'An app has at most 5 public keys: delete one first.', 'tooManyKeys');
    const known = await this.db
      .selectFrom('oauth_app_key')
      .select('app_id')
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
    if (known) throw refuse(409, 'This public key is already in use.', 'keyInUse');
    await this.db
      .insertInto('oauth_app_key')
      .values({ fingerprint, app_id: appId, public_key_pem: pem.trim(), created_at: iso() })
      .execute();
    return fingerprint;
  }

  /** A new RSA key pair: the public half is kept, the private one answered once (the studio does not keep it). */
  async generateKey(appId: string, ownerId: string): Promise<{ fingerprint: string; private_key_pem: string }> {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const fingerprint = await this.uploadKey(
      appId,
      ownerId,
      publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    return { fingerprint, private_key_pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  }

  async deleteKey(appId: string, ownerId: string, fingerprint: string): Promise<void> {
    await this.mine(appId, ownerId);
    const r = await this.db
      .deleteFrom('oauth_app_key')
      .where('app_id', '=', appId)
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw notFound(`The app has no public key ${fingerprint}.`);
  }

  async key(fingerprint: string): Promise<{ app_id: string; public_key_pem: string } | undefined> {
    return this.db
      .selectFrom('oauth_app_key')
      .select(['app_id', 'public_key_pem'])
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
  }

  /** A service app's authorization in spaces of its owner (each one the owner belongs to). */
  async authorizeService(
    appId: string,
    ownerId: string,
    workspaceIds: string[],
    grant: (app: AppRow, userId: string, spaces: string[]) => Promise<unknown>,
  ): Promise<AppMeta> {
    const app = await this.mine(appId, ownerId);
    if (app.client_type !== 'service')
      throw refuse(
        400,
        'Only a service app is authorized by its owner; users authorize other apps on the consent page.',
        'notService',
      );
    await this.checkMember(ownerId, workspaceIds);
    await grant(app, ownerId, workspaceIds);
    return this.view(app);
  }

  async checkMember(userId: string, workspaceIds: string[]): Promise<void> {
    const mine = new Set(await this.#ctx.service(SpacesService).spacesOf(userId));
    const outside = workspaceIds.filter((w) => !mine.has(w));
    if (outside.length)
      throw refuse(403, `You are not a member of space(s) ${outside.join(', ')}.`, 'notMember', {
        spaces: outside.join(', '),
      });
  }

  async view(row: AppRow): Promise<AppMeta> {
    const [secrets, keys, own] = await Promise.all([
      this.db
        .selectFrom('oauth_app_secret')
        .select(['id', 'hint', 'created_at'])
        .where('app_id', '=', row.id)
        .orderBy('created_at')
        .execute(),
      this.db
        .selectFrom('oauth_app_key')
        .select(['fingerprint', 'created_at'])
        .where('app_id', '=', row.id)
        .orderBy('created_at')
        .execute(),
      row.client_type === 'service'
        ? this.db
            .selectFrom('oauth_grant')
            .select('workspace_ids')
            .where('app_id', '=', row.id)
            .where('user_id', '=', row.owner_id)
            .executeTakeFirst()
        : undefined,
    ]);
    return {
      appid: row.id,
      app_type: 'normal',
      client_type: row.client_type,
      name: row.name,
      description: row.description,
      status: row.status,
      oauth2_configuration: this.config(row),
      declared_permission: strings(row.permissions),
      client_secrets: secrets.map((s) => ({
        client_secret_id: s.id,
        hint: `…${s.hint}`,
        created_at: secs(s.created_at),
      })),
      public_keys: keys.map((k) => ({ fingerprint: k.fingerprint, created_at: secs(k.created_at) })),
      authorized_workspace_ids: own ? strings(own.workspace_ids) : [],
      owner_id: row.owner_id,
      created_at: secs(row.created_at),
      updated_at: secs(row.updated_at),
    };
  }

  #checkRedirects(type: ClientType, uris: string[]): void {
    for (const uri of uris) {
      const u = new URL(uri);
      const local = u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]';
      // A code sent over plain HTTP can be read on the way, except to this machine (a native app's loopback).
      if (
        u.protocol !== 'https:' &&
        !(u.protocol === 'http:' && local) &&
        !(
          type === 'spa' &&
          /^[a-z][a-z0-9+.-]*:$/.test(u.protocol) &&
          !['http:', 'javascript:', 'data:', 'file:'].includes(u.protocol)
        )
      )
        throw refuse(400, `Redirect URI ${uri} must use https (or http to localhost).`, 'insecureRedirect', { uri });
      if (u.hash)
        throw refuse(400, `Redirect URI ${uri} must not have a fragment (#...).`, 'fragmentRedirect', { uri });
    }
  }
}
