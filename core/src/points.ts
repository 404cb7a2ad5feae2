import { AsyncParallelHook, AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import { Subject, type Observable } from 'rxjs';
import type { ZodType } from 'zod';
import { toDisposable, type Disposable } from './disposable.ts';

/** Who owns a point: 'host' or the id of the extension that declares it. Only the owner may call a hook. */
export type PointOwner = string;

export interface RegistryPointToken<T> {
  readonly kind: 'registry';
  readonly id: string;
  readonly owner: PointOwner;
  readonly description: string;
  readonly schema?: ZodType;
  readonly keyOf: (item: T) => string;
  /** Further values two items may not share (a node type's numeric code): named, e.g. `code 5`. */
  readonly uniqueOf?: (item: T) => string[];
  /** Phantom member carrying the item type. */
  readonly __item?: T;
}

/**
 * sync: SyncHook; series: AsyncSeriesHook; parallel: AsyncParallelHook;
 * bail: AsyncSeriesBailHook (first non-undefined result wins); waterfall: AsyncSeriesWaterfallHook.
 */
export type HookKind = 'sync' | 'series' | 'parallel' | 'bail' | 'waterfall';

export interface HookPointToken<Args extends unknown[], R> {
  readonly kind: 'hook';
  readonly hookKind: HookKind;
  readonly id: string;
  readonly owner: PointOwner;
  readonly description: string;
  /** Argument names, as tapable wants them; also documentation. */
  readonly args: readonly string[];
  readonly __args?: Args;
  readonly __result?: R;
}

export type PointToken = RegistryPointToken<any> | HookPointToken<any, any>;

export function defineRegistryPoint<T>(spec: {
  id: string;
  owner: PointOwner;
  description: string;
  schema?: ZodType;
  key: (item: T) => string;
  /** Further values that must be unique across items besides the key (e.g. `code 5`). */
  unique?: (item: T) => string[];
}): RegistryPointToken<T> {
  return Object.freeze({
    kind: 'registry',
    id: spec.id,
    owner: spec.owner,
    description: spec.description,
    schema: spec.schema,
    keyOf: spec.key,
    uniqueOf: spec.unique,
  });
}

export function defineHookPoint<Args extends unknown[], R = void>(spec: {
  id: string;
  owner: PointOwner;
  description: string;
  kind: HookKind;
  args?: readonly string[];
}): HookPointToken<Args, R> {
  return Object.freeze({
    kind: 'hook',
    hookKind: spec.kind,
    id: spec.id,
    owner: spec.owner,
    description: spec.description,
    args: spec.args ?? ['arg0'],
  });
}

export class PointRegistrationError extends Error {
  readonly pointId: string;
  constructor(pointId: string, message: string) {
    super(`[${pointId}] ${message}`);
    this.name = 'PointRegistrationError';
    this.pointId = pointId;
  }
}

export interface RegistryEntry<T> {
  readonly key: string;
  readonly owner: string;
  readonly value: T;
}

export interface RegistryChange<T> {
  readonly type: 'added' | 'removed';
  readonly entry: RegistryEntry<T>;
}

/** What everyone may do with a registry point: read it. */
export interface RegistryView<T> {
  list(): T[];
  entries(): RegistryEntry<T>[];
  get(key: string): T | undefined;
  ownerOf(key: string): string | undefined;
  readonly changes$: Observable<RegistryChange<T>>;
}

export class RegistryPoint<T> implements RegistryView<T> {
  readonly token: RegistryPointToken<T>;
  #entries = new Map<string, RegistryEntry<T>>();
  /** Owners of the further unique values of the items registered. */
  #unique = new Map<string, RegistryEntry<T>>();
  #changes = new Subject<RegistryChange<T>>();
  readonly changes$ = this.#changes.asObservable();

  constructor(token: RegistryPointToken<T>) {
    this.token = token;
  }

  register(owner: string, item: T): Disposable {
    const { schema, id } = this.token;
    if (schema) {
      const result = schema.safeParse(item);
      if (!result.success) {
        const problems = result.error.issues.map((i) => `${i.path.join('.') || '(item)'}: ${i.message}`).join('; ');
        throw new PointRegistrationError(id, `invalid registration from '${owner}': ${problems}`);
      }
    }
    const key = this.token.keyOf(item);
    const existing = this.#entries.get(key);
    if (existing) {
      throw new PointRegistrationError(
        id,
        `duplicate key '${key}' from '${owner}': already registered by '${existing.owner}'`,
      );
    }
    const unique = this.token.uniqueOf?.(item) ?? [];
    for (const u of unique) {
      const taken = this.#unique.get(u);
      if (taken)
        throw new PointRegistrationError(
          id,
          `'${key}' from '${owner}' has ${u}, which '${taken.key}' of '${taken.owner}' already has`,
        );
    }
    const entry: RegistryEntry<T> = Object.freeze({ key, owner, value: item });
    this.#entries.set(key, entry);
    for (const u of unique) this.#unique.set(u, entry);
    this.#changes.next({ type: 'added', entry });
    return toDisposable(() => {
      if (this.#entries.get(key) === entry) {
        this.#entries.delete(key);
        for (const u of unique) if (this.#unique.get(u) === entry) this.#unique.delete(u);
        this.#changes.next({ type: 'removed', entry });
      }
    });
  }

  list(): T[] {
    return [...this.#entries.values()].map((e) => e.value);
  }
  entries(): RegistryEntry<T>[] {
    return [...this.#entries.values()];
  }
  get(key: string): T | undefined {
    return this.#entries.get(key)?.value;
  }
  ownerOf(key: string): string | undefined {
    return this.#entries.get(key)?.owner;
  }
}

export type HookFn<Args extends unknown[], R> = (...args: Args) => R | undefined | void | Promise<R | undefined | void>;

export interface TapOptions {
  /** Lower stages run first (tapable's stage). */
  stage?: number;
  /** Run before the taps with these full names ('<extension>:<tap name>'). */
  before?: string | string[];
}

interface TapEntry {
  owner: string;
  name: string;
  fn: (...args: unknown[]) => unknown;
  options: TapOptions;
}

export type HookErrorReporter = (info: { pointId: string; owner: string; tapName: string; error: unknown }) => void;

/**
 * How hooks call their taps. 'compiled': tapable's own `call`/`promise`, which tapable compiles to a function per
 * set of taps (`new Function`): the server. 'interpreted': the same order and semantics by a loop here, for a page
 * whose Content Security Policy forbids compiling code from text (`script-src` without 'unsafe-eval'): the browser.
 */
export type HookCalling = 'compiled' | 'interpreted';

/** The default: compiled where there is no page (Node), interpreted in a browser. */
export const defaultHookCalling = (): HookCalling =>
  typeof (globalThis as { document?: unknown }).document === 'undefined' ? 'compiled' : 'interpreted';

/**
 * A hook point: a tapable hook whose taps are named, owned and wrapped so that a throwing tap is
 * reported and skipped. Taps can be disposed (tapable cannot untap, so the hook is rebuilt).
 */
export class HookPoint<Args extends unknown[], R> {
  readonly token: HookPointToken<Args, R>;
  #taps: TapEntry[] = [];
  #hook: any;
  #report: HookErrorReporter;
  #calling: HookCalling;

  constructor(token: HookPointToken<Args, R>, report: HookErrorReporter, calling: HookCalling = defaultHookCalling()) {
    this.token = token;
    this.#report = report;
    this.#calling = calling;
    this.#hook = this.#create();
  }

  get size(): number {
    return this.#taps.length;
  }

  /** The taps, with their owners (diagnostics, the extensions page). */
  taps(): { owner: string; name: string }[] {
    return this.#taps.map((t) => ({ owner: t.owner, name: t.name }));
  }

  tap(owner: string, name: string, fn: HookFn<Args, R>, options: TapOptions = {}): Disposable {
    if (!name || typeof name !== 'string')
      throw new PointRegistrationError(this.token.id, `a tap from '${owner}' needs a name`);
    if (typeof fn !== 'function')
      throw new PointRegistrationError(this.token.id, `tap '${name}' from '${owner}' is not a function`);
    const entry: TapEntry = { owner, name, fn: fn as TapEntry['fn'], options };
    this.#taps.push(entry);
    this.#hook = this.#create();
    return toDisposable(() => {
      const i = this.#taps.indexOf(entry);
      if (i >= 0) {
        this.#taps.splice(i, 1);
        this.#hook = this.#create();
      }
    });
  }

  /**
   * Only the point's owner gets at this (see PointRegistry.caller). The taps run in tapable's order (stage,
   * before) with tapable's semantics: through tapable's compiled `call`/`promise` on the server, by the loop below
   * in the browser (see HookCalling). Every tap gets every argument the caller passes.
   */
  call(...args: Args): R | Promise<R> {
    if (this.#calling === 'compiled') {
      const kind = this.token.hookKind;
      if (kind === 'sync') {
        this.#hook.call(args);
        return undefined as R;
      }
      return (
        kind === 'waterfall' ? this.#hook.promise(args[0], args.slice(1)) : this.#hook.promise(args)
      ) as Promise<R>;
    }
    const taps = (this.#hook.taps as { fn: (...a: unknown[]) => unknown }[]).map((t) => t.fn);
    switch (this.token.hookKind) {
      case 'sync':
        for (const fn of taps) fn(...args);
        return undefined as R;
      case 'series':
        return (async () => {
          for (const fn of taps) await fn(...args);
          return undefined as R;
        })();
      case 'parallel':
        return Promise.all(taps.map((fn) => fn(...args))).then(() => undefined as R);
      case 'bail':
        return (async () => {
          for (const fn of taps) {
            const r = await fn(...args);
            if (r !== undefined) return r as R;
          }
          return undefined as R;
        })();
      default:
        return (async () => {
          let value: unknown = args[0];
          for (const fn of taps) {
            const r = await fn(value, ...args.slice(1));
            if (r !== undefined) value = r;
          }
          return value as R;
        })();
    }
  }

  #create(): any {
    const { hookKind } = this.token;
    // Compiled, the caller's arguments travel packed (tapable hands a tap only the arguments it was told of, and a
    // caller may pass more than a point names): a waterfall's value first, then the rest; other kinds, all of them.
    // Interpreted, the loop in call() reads the taps' functions and passes the arguments as they are.
    const packed = this.#calling === 'compiled';
    const names = (hookKind === 'waterfall' ? ['value', 'rest'] : ['args']) as unknown as [string];
    const hook: any =
      hookKind === 'sync'
        ? new SyncHook(names)
        : hookKind === 'series'
          ? new AsyncSeriesHook(names)
          : hookKind === 'parallel'
            ? new AsyncParallelHook(names)
            : hookKind === 'bail'
              ? new AsyncSeriesBailHook(names)
              : new AsyncSeriesWaterfallHook(names);
    const unpack = (a: unknown[]): unknown[] =>
      !packed ? a : hookKind === 'waterfall' ? [a[0], ...(a[1] as unknown[])] : (a[0] as unknown[]);
    for (const t of this.#taps) {
      const tapName = `${t.owner}:${t.name}`;
      const opts = { name: tapName, stage: t.options.stage, before: t.options.before as string | undefined };
      const fail = (error: unknown) => this.#report({ pointId: this.token.id, owner: t.owner, tapName: t.name, error });
      if (hookKind === 'sync') {
        hook.tap(opts, (...a: unknown[]) => {
          try {
            t.fn(...unpack(a));
          } catch (error) {
            fail(error);
          }
        });
      } else {
        hook.tapPromise(opts, async (...a: unknown[]) => {
          try {
            return await t.fn(...unpack(a));
          } catch (error) {
            fail(error);
            return hookKind === 'waterfall' ? a[0] : undefined;
          }
        });
      }
    }
    return hook;
  }
}

/** A caller of a hook point: given only to the point's owner. */
export interface HookCaller<Args extends unknown[], R> {
  call(...args: Args): R | Promise<R>;
  readonly size: number;
}

/** The host's table of point instances, created on first use from their tokens. */
export class PointRegistry {
  #points = new Map<string, RegistryPoint<any> | HookPoint<any, any>>();
  #tokens = new Map<string, PointToken>();
  #report: HookErrorReporter;

  #calling: HookCalling;

  constructor(report: HookErrorReporter, calling: HookCalling = defaultHookCalling()) {
    this.#report = report;
    this.#calling = calling;
  }

  registry<T>(token: RegistryPointToken<T>): RegistryPoint<T> {
    return this.#instance(token, () => new RegistryPoint(token)) as RegistryPoint<T>;
  }

  hook<Args extends unknown[], R>(token: HookPointToken<Args, R>): HookPoint<Args, R> {
    return this.#instance(token, () => new HookPoint(token, this.#report, this.#calling)) as HookPoint<Args, R>;
  }

  /** Every point used so far, for documentation and diagnostics. */
  tokens(): PointToken[] {
    return [...this.#tokens.values()];
  }

  /** Who contributed what: registry entries (by key) and hook taps (by name), with their owners. */
  contributions(): { point: string; owner: string; key: string }[] {
    const out: { point: string; owner: string; key: string }[] = [];
    for (const [id, p] of this.#points) {
      if (p instanceof RegistryPoint) for (const e of p.entries()) out.push({ point: id, owner: e.owner, key: e.key });
      else for (const t of p.taps()) out.push({ point: id, owner: t.owner, key: t.name });
    }
    return out;
  }

  #instance(token: PointToken, create: () => RegistryPoint<any> | HookPoint<any, any>) {
    let p = this.#points.get(token.id);
    if (!p) {
      p = create();
      this.#points.set(token.id, p);
      this.#tokens.set(token.id, token);
    } else if (this.#tokens.get(token.id) !== token && this.#tokens.get(token.id)?.kind !== token.kind) {
      throw new PointRegistrationError(token.id, 'two different points share this id');
    }
    return p;
  }
}
