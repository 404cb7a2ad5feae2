// Service identities and their keys: a space's identities that are not people, each with the permissions a token can
// hold and a role in its space, and keys ('svc_...', hashed, answered once) that expire.
import { createHash, randomBytes } from 'node:crypto';
import type { ServerContext } from '@tessera/sdk/server';
import { TokenPermissions, checkTokenPermissions } from '@tessera/ext-identity/shared';
import type { Kysely } from 'kysely';
import type { ServiceView } from '../shared/api.ts';
import { texts } from './texts.ts';

export interface ServiceRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  permissions: string;
  role: 'member' | 'admin';
  status: 'active' | 'disabled';
  created_by: string;
  created_at: string;
  updated_at: string;
}
interface KeyRow {
  id: string;
  service_id: string;
  key_hash: string;
  hint: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}
interface ServiceDb {
  service_identity: ServiceRow;
  service_identity_key: KeyRow;
}

export const KEY_PREFIX = 'svc';
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const iso = (ms = Date.now()) => new Date(ms).toISOString();
const secs = (v: string | null) => (v ? Math.floor(Date.parse(v) / 1000) : 0);
export const permissionsOf = (row: { permissions: string }): string[] => {
  try {
    const v: unknown = JSON.parse(row.permissions);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/** What the authenticator keeps of a valid key. */
export interface KeyEntry {
  keyId: string;
  serviceId: string;
  spaceId: string;
  role: 'member' | 'admin';
  permissions: Set<string>;
  expiresAt: number;
}

export class ServiceStore {
  readonly #ctx: ServerContext;
  readonly #changed: (serviceId: string) => void;

  constructor(ctx: ServerContext, changed: (serviceId: string) => void) {
    this.#ctx = ctx;
    this.#changed = changed;
  }

  get db(): Kysely<ServiceDb> {
    return this.#ctx.db;
  }

  #checkPermissions(permissions: string[]): string[] {
    return checkTokenPermissions(this.#ctx.registry(TokenPermissions).list(), permissions);
  }

  async create(v: {
    spaceId: string;
    userId: string;
    name: string;
    description: string;
    permissions: string[];
    role: 'member' | 'admin';
  }): Promise<ServiceView> {
    const row: ServiceRow = {
      id: this.#ctx.host.newId(),
      space_id: v.spaceId,
      name: v.name,
      description: v.description,
      permissions: JSON.stringify(this.#checkPermissions(v.permissions)),
      role: v.role,
      status: 'active',
      created_by: v.userId,
      created_at: iso(),
      updated_at: iso(),
    };
    await this.db.insertInto('service_identity').values(row).execute();
    return this.view(row);
  }

  async get(spaceId: string, id: string): Promise<ServiceRow> {
    const row = await this.db
      .selectFrom('service_identity')
      .selectAll()
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (!row) throw texts.error(404, 'notFound');
    return row;
  }

  async list(spaceId: string): Promise<ServiceView[]> {
    const rows = await this.db
      .selectFrom('service_identity')
      .selectAll()
      .where('space_id', '=', spaceId)
      .orderBy('created_at')
      .execute();
    return Promise.all(rows.map((r) => this.view(r)));
  }

  async update(
    spaceId: string,
    id: string,
    v: Partial<Pick<ServiceRow, 'name' | 'description' | 'role' | 'status'>> & { permissions?: string[] },
  ): Promise<ServiceView> {
    const row = await this.get(spaceId, id);
    const { permissions, ...rest } = v;
    const set: Partial<ServiceRow> = {
      ...Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined)),
      updated_at: iso(),
    };
    if (permissions) set.permissions = JSON.stringify(this.#checkPermissions(permissions));
    await this.db.updateTable('service_identity').set(set).where('id', '=', id).execute();
    this.#changed(id);
    return this.view({ ...row, ...set });
  }

  async remove(spaceId: string, id: string): Promise<void> {
    await this.get(spaceId, id);
    await this.db.deleteFrom('service_identity_key').where('service_id', '=', id).execute();
    await this.db.deleteFrom('service_identity').where('id', '=', id).execute();
    this.#changed(id);
  }

  async createKey(
    spaceId: string,
    id: string,
    days: number,
  ): Promise<{ key_id: string; key: string; expire_at: number }> {
    await this.get(spaceId, id);
    const count = await this.db
      .selectFrom('service_identity_key')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('service_id', '=', id)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= 10) throw texts.error(409, 'tooManyKeys');
    const key = `${KEY_PREFIX}_${randomBytes(32).toString('base64url')}`;
    const expires = Date.now() + days * 86_400_000;
    const keyId = this.#ctx.host.newId();
    await this.db
      .insertInto('service_identity_key')
      .values({
        id: keyId,
        service_id: id,
        key_hash: sha256(key),
        hint: key.slice(-4),
        created_at: iso(),
        expires_at: iso(expires),
        last_used_at: null,
      })
      .execute();
    return { key_id: keyId, key, expire_at: Math.floor(expires / 1000) };
  }

  async deleteKey(spaceId: string, id: string, keyId: string): Promise<void> {
    await this.get(spaceId, id);
    const r = await this.db
      .deleteFrom('service_identity_key')
      .where('id', '=', keyId)
      .where('service_id', '=', id)
      .executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw texts.error(404, 'noKey');
    this.#changed(id);
  }

  /** A valid key's identity (an active one), or undefined. */
  async byKey(hash: string): Promise<KeyEntry | undefined> {
    const row = await this.db
      .selectFrom('service_identity_key')
      .innerJoin('service_identity', 'service_identity.id', 'service_identity_key.service_id')
      .select([
        'service_identity_key.id as key_id',
        'service_identity_key.expires_at',
        'service_identity.id as service_id',
        'service_identity.space_id',
        'service_identity.role',
        'service_identity.status',
        'service_identity.permissions',
      ])
      .where('service_identity_key.key_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.status !== 'active') return undefined;
    return {
      keyId: row.key_id,
      serviceId: row.service_id,
      spaceId: row.space_id,
      role: row.role,
      permissions: new Set(permissionsOf(row)),
      expiresAt: Date.parse(row.expires_at),
    };
  }

  touch(keyId: string): void {
    void this.db
      .updateTable('service_identity_key')
      .set({ last_used_at: iso() })
      .where('id', '=', keyId)
      .execute()
      .catch(() => undefined);
  }

  async view(row: ServiceRow): Promise<ServiceView> {
    const keys = await this.db
      .selectFrom('service_identity_key')
      .selectAll()
      .where('service_id', '=', row.id)
      .orderBy('created_at')
      .execute();
    return {
      service_id: row.id,
      space_id: row.space_id,
      name: row.name,
      description: row.description,
      permissions: permissionsOf(row),
      role: row.role,
      status: row.status,
      keys: keys.map((k) => ({
        key_id: k.id,
        hint: `…${k.hint}`,
        created_at: secs(k.created_at),
        expire_at: secs(k.expires_at),
        last_used_at: secs(k.last_used_at),
        status: Date.parse(k.expires_at) > Date.now() ? 'active' : 'expired',
      })),
      created_by: row.created_by,
      created_at: secs(row.created_at),
      updated_at: secs(row.updated_at),
    };
  }
}
