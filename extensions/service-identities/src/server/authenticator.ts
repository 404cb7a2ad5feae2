// Service keys ('svc_...') on the open API: the caller is the service identity itself (its id as the caller's id,
// never a person, never a platform administrator), allowed its permissions in its own space only, where it is a
// member or an administrator as set. A valid key is read once and kept in memory; a change to the identity or its
// keys drops it.
import {
  LocalCache,
  RequestAuthenticators,
  SpaceAuthorizers,
  type AuthRejection,
  type Caller,
  type ServerContext,
  ServerContextToken,
} from '@tessera/sdk/server';
import { KEY_PREFIX, sha256, type KeyEntry, type ServiceStore } from './store.ts';

export class ServiceAuthenticator {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  readonly #cache: LocalCache<string, KeyEntry>;
  readonly #callers = new WeakMap<Caller, KeyEntry>();
  readonly #used = new Map<string, number>();
  #store?: ServiceStore;

  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
    this.#cache = new LocalCache({ max: 10_000, enabled: !ctx.host.distributed });
  }

  readonly changed = (serviceId: string) => this.#cache.clear((_k, e) => e.serviceId === serviceId);

  register(store: ServiceStore): void {
    this.#store = store;
    this.#ctx.tap(RequestAuthenticators, 'service-key', async (req): Promise<Caller | AuthRejection | undefined> => {
      const auth = req.headers.authorization;
      if (typeof auth !== 'string' || !/^Bearer\s+/i.test(auth)) return undefined;
      const secret = auth.replace(/^Bearer\s+/i, '').trim();
      if (!secret.startsWith(`${KEY_PREFIX}_`)) return undefined;
      const hash = sha256(secret);
      const entry = this.#cache.get(hash) ?? (await this.#load(hash));
      if (!entry)
        return {
          rejected: true,
          status: 401,
          msg: 'This service key is not valid (it may have been deleted, or its identity disabled).',
        };
      if (entry.expiresAt <= Date.now())
        return {
          rejected: true,
          status: 401,
          msg: 'This service key has expired: make a new one for the service identity.',
        };
      if (Date.now() - (this.#used.get(entry.keyId) ?? 0) > 60_000) {
        this.#used.set(entry.keyId, Date.now());
        this.#store?.touch(entry.keyId);
      }
      const caller: Caller = {
        kind: 'token',
        userId: entry.serviceId,
        isPlatformAdmin: false,
        // Only in its space: a route of no space (the caller's own account, spaces listed for a person) is not for it.
        tokenAllows: (permission, spaceId) =>
          spaceId === entry.spaceId && (!permission || entry.permissions.has(permission)),
        credential: { kind: 'service', id: entry.serviceId },
      };
      this.#callers.set(caller, entry);
      return caller;
    });
    // Its own space, before the membership of people is asked (a service identity is nobody's member).
    this.#ctx.tap(
      SpaceAuthorizers,
      'service-identity',
      (caller, spaceId) => {
        const entry = this.#callers.get(caller);
        if (!entry) return undefined;
        return entry.spaceId === spaceId ? { allowed: true, role: entry.role } : { allowed: false };
      },
      { stage: -10 },
    );
  }

  async #load(hash: string): Promise<KeyEntry | undefined> {
    const entry = await this.#store!.byKey(hash);
    return entry ? this.#cache.set(hash, entry) : undefined;
  }
}
