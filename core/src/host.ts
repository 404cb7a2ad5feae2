import { Container } from 'inversify';
import type { Observable } from 'rxjs';
import type { ZodType } from 'zod';
import { EventBus, type EventToken } from './bus.ts';
import { DisposableStore, toAsyncDisposable, toDisposable, type Disposable } from './disposable.ts';
import { ErrorSinks, describeError, type ReportedError } from './errors.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { planExtensions, type ExtensionManifest } from './plan.ts';
import {
  PointRegistry,
  type HookCaller,
  type HookFn,
  type HookPointToken,
  type RegistryPointToken,
  type RegistryView,
  type TapOptions,
  type HookCalling,
} from './points.ts';
import {
  ExtensionContextToken,
  isServiceToken,
  type Injectable,
  type ServiceClass,
  type ServiceToken,
} from './services.ts';

/** What every extension gets, on either side. Side-specific contexts extend it. */
export interface ExtensionContext<Config = unknown> {
  readonly extensionId: string;
  readonly manifest: ExtensionManifest;
  /** The extension's configuration, validated (and defaulted) by its own schema. */
  readonly config: Config;
  readonly logger: Logger;
  /** The extension's own child container, for its internal classes. */
  readonly container: Container;
  register<T>(point: RegistryPointToken<T>, item: T): Disposable;
  tap<Args extends unknown[], R>(
    point: HookPointToken<Args, R>,
    name: string,
    fn: HookFn<Args, R>,
    options?: TapOptions,
  ): Disposable;
  /** Read-only view of a registry point (list, get, changes$). */
  registry<T>(point: RegistryPointToken<T>): RegistryView<T>;
  /** The caller of a hook point this extension owns. */
  caller<Args extends unknown[], R>(point: HookPointToken<Args, R>): HookCaller<Args, R>;
  provide<T>(service: ServiceToken<T>, value: T): Disposable;
  /**
   * A service made by a class when first asked for (a singleton): its constructor takes the services its static
   * `inject` list names, in that order, resolved from the container (each must be the host's, this extension's or
   * one its manifest names). The extension tester's stand-ins replace it, or any of its dependencies.
   */
  provideClass<T>(service: ServiceToken<T>, cls: ServiceClass<T>): Disposable;
  /**
   * One of the extension's own classes, made once in its child container with what its static `inject` list names
   * (services, `ExtensionContextToken`, the extension's other classes). The extension tester's stand-in for the
   * class, when it has one, is given instead.
   */
  resolve<T>(cls: ServiceClass<T>): T;
  /** A service of the host or of a required extension. */
  service<T>(service: ServiceToken<T>): T;
  /** A service of an optional extension, or undefined when it is not running. */
  optionalService<T>(service: ServiceToken<T>): T | undefined;
  emit<T>(event: EventToken<T>, payload: T): void;
  on<T>(event: EventToken<T>, handler: (payload: T) => void | Promise<void>): Disposable;
  events<T>(event: EventToken<T>): Observable<T>;
  /** Runs when the extension stops (awaited, 10 s at most) or is rolled back; may return a promise (a last flush). */
  onDispose(fn: () => void | Promise<void>): void;
  /** Reports an error to the error sinks, tagged with this extension. */
  report(error: unknown, detail?: Record<string, unknown>): void;
}

export interface ExtensionDefinition<Ctx = ExtensionContext> {
  id: string;
  configSchema?: ZodType;
  /** Synchronous: only declares contributions. */
  register?(ctx: Ctx): void;
  /** Asynchronous, in dependency order, with a time limit. */
  start?(ctx: Ctx): void | Promise<void>;
  /** In reverse order. */
  stop?(ctx: Ctx): void | Promise<void>;
}

export interface ExtensionCandidate<Ctx = ExtensionContext> {
  manifest: ExtensionManifest;
  /** Imports the extension's code; only called for enabled extensions. */
  load(): Promise<ExtensionDefinition<Ctx>>;
  source: 'builtin' | 'runtime' | 'test';
  dir?: string;
}

export interface ExtensionSettings {
  enabled?: boolean;
  config?: unknown;
  onFailure?: 'continue' | 'abort';
  startTimeoutMs?: number;
}

export type ExtensionState = 'started' | 'disabled' | 'failed' | 'stopped';

export interface ExtensionStatus {
  id: string;
  version: string;
  source: ExtensionCandidate['source'];
  state: ExtensionState;
  reason?: string;
  /** Milliseconds from loading its code to started (load, register, migrations, start). */
  startMs?: number;
  /** Of which loading its code (the import of its entry and what that imports). */
  loadMs?: number;
  /** What the process's memory grew by while it loaded and started, in MB (when the host measures memory; shared modules count for the first extension that loads them). */
  memoryMb?: number;
  /** The folder it was found in (built-in and runtime-loaded extensions). */
  dir?: string;
}

export class HostStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostStartError';
  }
}

export interface ExtensionHostOptions<Ctx> {
  logger?: Logger;
  /** Adds the side's own members (server: db, routes ...; web: api ...) to the base context. */
  extendContext?: (base: ExtensionContext, candidate: ExtensionCandidate<Ctx>) => Ctx;
  /** The process's memory now, in bytes (the server passes its RSS): extension statuses then say what each added. */
  memory?: () => number;
  /** Runs between register and start (the server runs the extension's migrations here). */
  beforeStart?: (id: string, ctx: Ctx) => Promise<void>;
  defaultStartTimeoutMs?: number;
  defaultOnFailure?: 'continue' | 'abort';
  /** How hook points call their taps (default: compiled by tapable in Node, interpreted in a browser). */
  hookCalling?: HookCalling;
  /**
   * Services bound before any extension runs and kept when an extension provides the same token (its own value
   * is then not bound): the extension tester's stand-ins for any service, an extension's own included. A class as
   * the key stands in for that class wherever an extension resolves it (`ctx.resolve`, an `inject` list).
   */
  serviceOverrides?: [Injectable, unknown][];
}

interface Running<Ctx> {
  id: string;
  def: ExtensionDefinition<Ctx>;
  ctx: Ctx;
  store: DisposableStore;
}

/** The kernel: one inversify container, the points, the bus, and the extensions' lifecycle. */
export class ExtensionHost<Ctx extends ExtensionContext = ExtensionContext> {
  readonly container = new Container({ defaultScope: 'Singleton' });
  readonly bus = new EventBus();
  readonly logger: Logger;
  readonly points: PointRegistry;
  #options: ExtensionHostOptions<Ctx>;
  #status = new Map<string, ExtensionStatus>();
  #running: Running<Ctx>[] = [];
  #serviceOwners = new Map<symbol, string>();
  #overridden = new Set<symbol>();
  #classOverrides = new Map<ServiceClass<unknown>, unknown>();

  constructor(options: ExtensionHostOptions<Ctx> = {}) {
    this.#options = options;
    this.logger = options.logger ?? consoleLogger({ name: 'tessera' });
    this.points = new PointRegistry(
      ({ pointId, owner, tapName, error }) =>
        this.report({
          source: 'hook',
          extensionId: owner,
          message: `tap '${tapName}' of '${owner}' on ${pointId} failed: ${describeError(error)}`,
          error,
          detail: { pointId, tapName },
        }),
      options.hookCalling,
    );
    for (const [token, value] of options.serviceOverrides ?? []) {
      if (!isServiceToken(token)) {
        this.#classOverrides.set(token, value);
        continue;
      }
      this.container.bind(token.symbol).toConstantValue(value);
      this.#serviceOwners.set(token.symbol, 'override');
      this.#overridden.add(token.symbol);
    }
  }

  /** Sends an error to the error sinks; with no sink tapped it is logged. */
  report(err: Omit<ReportedError, 'timestamp'> & { timestamp?: number }): void {
    const full: ReportedError = { timestamp: Date.now(), ...err };
    const sinks = this.points.hook(ErrorSinks);
    this.logger.error(full.message, { source: full.source, extensionId: full.extensionId, ...full.detail });
    if (sinks.size === 0) return;
    try {
      void sinks.call(full);
    } catch (e) {
      console.error('error sink failed', e);
    }
  }

  provideHostService<T>(token: ServiceToken<T>, value: T): void {
    this.#bindService('host', token, { value });
  }

  hostService<T>(token: ServiceToken<T>): T {
    return this.container.get<T>(token.symbol);
  }

  status(): ExtensionStatus[] {
    return [...this.#status.values()];
  }

  isStarted(id: string): boolean {
    return this.#status.get(id)?.state === 'started';
  }

  async start(
    candidates: ExtensionCandidate<Ctx>[],
    settingsOf: (id: string) => ExtensionSettings = () => ({}),
  ): Promise<ExtensionStatus[]> {
    const byId = new Map(candidates.map((c) => [c.manifest.id, c]));
    const plan = planExtensions(
      // Drop-ins start after the built-ins they could otherwise pre-empt (a registry key, a node code).
      candidates.map((c) => ({ ...c.manifest, rank: c.manifest.rank ?? (c.source === 'runtime' ? 1 : 0) })),
      (id) => settingsOf(id).enabled !== false,
    );
    for (const c of candidates) {
      const reason = plan.disabled.get(c.manifest.id);
      if (reason === undefined) continue;
      this.#status.set(c.manifest.id, {
        id: c.manifest.id,
        version: c.manifest.version,
        source: c.source,
        state: 'disabled',
        reason,
        dir: c.dir,
      });
      (reason === 'disabled by configuration' ? this.logger.info : this.logger.warn)(
        `extension '${c.manifest.id}' disabled: ${reason}`,
        { extensionId: c.manifest.id },
      );
      if (reason.includes('dependency cycle')) {
        this.report({
          source: 'extension',
          extensionId: c.manifest.id,
          message: `extension '${c.manifest.id}' not started: ${reason}`,
          detail: { phase: 'plan' },
        });
      }
    }
    for (const id of plan.order) {
      const candidate = byId.get(id)!;
      const settings = settingsOf(id);
      const failedDep = candidate.manifest.requires.find((r) => !this.isStarted(r));
      if (failedDep) {
        const reason = `requires '${failedDep}', which ${this.#status.get(failedDep)?.state === 'failed' ? 'failed to start' : 'is not running'}`;
        this.#status.set(id, {
          id,
          version: candidate.manifest.version,
          source: candidate.source,
          state: 'disabled',
          reason,
          dir: candidate.dir,
        });
        this.logger.warn(`extension '${id}' disabled: ${reason}`, { extensionId: id });
        continue;
      }
      await this.#startOne(candidate, settings);
    }
    return this.status();
  }

  async #startOne(candidate: ExtensionCandidate<Ctx>, settings: ExtensionSettings): Promise<void> {
    const { manifest } = candidate;
    const id = manifest.id;
    const began = performance.now();
    const memoryBefore = this.#options.memory?.();
    const store = new DisposableStore();
    let phase = 'load';
    let running: Running<Ctx> | undefined;
    try {
      const def = await candidate.load();
      const loadMs = round(performance.now() - began);
      if (def.id !== id) throw new Error(`its code declares id '${def.id}' but its manifest says '${id}'`);
      phase = 'config';
      const config = this.#config(def, settings.config);
      const ctx = this.#context(candidate, config, store);
      running = { id, def, ctx, store };
      phase = 'register';
      const r = def.register?.(ctx) as unknown;
      if (r && typeof (r as Promise<void>).then === 'function')
        throw new Error('register() must be synchronous; do async work in start()');
      if (this.#options.beforeStart) {
        phase = 'migrate';
        await this.#options.beforeStart(id, ctx);
      }
      phase = 'start';
      const limit = settings.startTimeoutMs ?? this.#options.defaultStartTimeoutMs ?? 10_000;
      await withTimeout(Promise.resolve(def.start?.(ctx)), limit, `start() did not finish within ${limit} ms`);
      this.#running.push(running);
      const memoryMb =
        memoryBefore === undefined
          ? undefined
          : Math.round(((this.#options.memory!() - memoryBefore) / 1048576) * 10) / 10;
      this.#status.set(id, {
        id,
        version: manifest.version,
        source: candidate.source,
        state: 'started',
        startMs: round(performance.now() - began),
        loadMs,
        ...(memoryMb === undefined ? {} : { memoryMb }),
        dir: candidate.dir,
      });
    } catch (error) {
      // Roll back everything this extension contributed; the host goes on (unless the policy aborts).
      store.dispose();
      const reason = `${phase} failed: ${describeError(error)}${candidate.source === 'runtime' && candidate.dir ? ` (folder ${candidate.dir})` : ''}`;
      this.#status.set(id, {
        id,
        version: manifest.version,
        source: candidate.source,
        state: 'failed',
        reason,
        dir: candidate.dir,
      });
      this.report({
        source: 'extension',
        extensionId: id,
        message: `extension '${id}' ${reason}`,
        error,
        detail: { phase },
      });
      const policy = settings.onFailure ?? this.#options.defaultOnFailure ?? 'continue';
      if (policy === 'abort') throw new HostStartError(`extension '${id}' ${reason} (startup policy: abort)`);
    }
  }

  async stop(): Promise<void> {
    for (const r of this.#running.splice(0).reverse()) {
      try {
        await withTimeout(Promise.resolve(r.def.stop?.(r.ctx)), 10_000, 'stop() did not finish within 10000 ms');
      } catch (error) {
        this.report({
          source: 'extension',
          extensionId: r.id,
          message: `extension '${r.id}' stop failed: ${describeError(error)}`,
          error,
          detail: { phase: 'stop' },
        });
      }
      const errors = await withTimeout(
        r.store.disposeAsync(),
        10_000,
        'its disposers did not finish within 10000 ms',
      ).catch((e: unknown) => [e instanceof Error ? e : new Error(String(e))]);
      for (const e of errors)
        this.report({ source: 'extension', extensionId: r.id, message: `dispose failed: ${e.message}`, error: e });
      const s = this.#status.get(r.id);
      if (s) s.state = 'stopped';
    }
  }

  #config(def: ExtensionDefinition<Ctx>, raw: unknown): unknown {
    if (!def.configSchema) return raw ?? {};
    const result = def.configSchema.safeParse(raw ?? {});
    if (!result.success) {
      const problems = result.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`).join('; ');
      throw new Error(`invalid configuration: ${problems}`);
    }
    return result.data;
  }

  #bindService<T>(owner: string, token: ServiceToken<T>, how: { value: T } | { make: () => T }): Disposable {
    // A stand-in given by the host's creator (the extension tester) stays: the extension's own is not bound.
    if (this.#overridden.has(token.symbol)) return toDisposable(() => undefined);
    if (this.container.isBound(token.symbol)) {
      throw new Error(`service '${token.id}' is already provided by '${this.#serviceOwners.get(token.symbol)}'`);
    }
    if ('make' in how) this.container.bind(token.symbol).toDynamicValue(how.make).inSingletonScope();
    else this.container.bind(token.symbol).toConstantValue(how.value);
    this.#serviceOwners.set(token.symbol, owner);
    return toDisposable(() => {
      this.container.unbind(token.symbol);
      this.#serviceOwners.delete(token.symbol);
    });
  }

  #context(candidate: ExtensionCandidate<Ctx>, config: unknown, store: DisposableStore): Ctx {
    const { manifest } = candidate;
    const id = manifest.id;
    const logger = this.logger.child({ extensionId: id });
    const declared = new Set([...manifest.requires, ...manifest.optional, id, 'host']);
    const visible = (token: ServiceToken<unknown>) => {
      if (!declared.has(token.owner)) {
        throw new Error(
          `extension '${id}' uses service '${token.id}' of '${token.owner}' without listing '${token.owner}' in requires or optional`,
        );
      }
    };
    // The extension's child container: its context and its own classes, falling back to the host's services.
    const container = new Container({ parent: this.container, defaultScope: 'Singleton' });
    const named = (d: Injectable) => (isServiceToken(d) ? `'${d.id}'` : `class ${d.name || '(anonymous)'}`);
    // Makes a class with what its inject list names; `path` is the chain being made, to name a cycle.
    const make = <T>(cls: ServiceClass<T>, path: string[]): T =>
      new cls(
        ...(cls.inject ?? []).map((d) => {
          if (!isServiceToken(d)) return resolve(d, path);
          visible(d);
          if (!container.isBound(d.symbol))
            throw new Error(
              `${path.at(-1) ?? named(cls)} needs ${named(d)}, which is not available (is '${d.owner}' running?)`,
            );
          return container.get(d.symbol);
        }),
      );
    const resolve = <T>(cls: ServiceClass<T>, path: string[]): T => {
      if (this.#classOverrides.has(cls)) return this.#classOverrides.get(cls) as T;
      const label = named(cls);
      if (path.includes(label))
        throw new Error(`extension '${id}' has a dependency cycle: ${[...path, label].join(' -> ')}`);
      if (!container.isBound(cls))
        container
          .bind(cls)
          .toDynamicValue(() => make(cls, [...path, label]))
          .inSingletonScope();
      return container.get<T>(cls);
    };
    const base: ExtensionContext = {
      extensionId: id,
      manifest,
      config,
      logger,
      container,
      register: (point, item) => store.add(this.points.registry(point).register(id, item)),
      tap: (point, name, fn, options) => store.add(this.points.hook(point).tap(id, name, fn, options)),
      registry: (point) => this.points.registry(point),
      caller: (point) => {
        if (point.owner !== id)
          throw new Error(`extension '${id}' cannot call hook ${point.id}: it belongs to '${point.owner}'`);
        const hook = this.points.hook(point);
        return {
          call: (...args) => hook.call(...args),
          get size() {
            return hook.size;
          },
        };
      },
      provide: (token, value) => {
        if (token.owner !== id)
          throw new Error(`extension '${id}' cannot provide service '${token.id}': it belongs to '${token.owner}'`);
        return store.add(this.#bindService(id, token, { value }));
      },
      provideClass: (token, cls) => {
        if (token.owner !== id)
          throw new Error(`extension '${id}' cannot provide service '${token.id}': it belongs to '${token.owner}'`);
        (cls.inject ?? []).forEach((d) => isServiceToken(d) && visible(d));
        return store.add(this.#bindService(id, token, { make: () => make(cls, [`service '${token.id}'`]) }));
      },
      resolve: (cls) => resolve(cls, []),
      service: (token) => {
        visible(token);
        if (!this.container.isBound(token.symbol))
          throw new Error(`service '${token.id}' is not available (is '${token.owner}' running?)`);
        return this.container.get(token.symbol);
      },
      optionalService: (token) => {
        visible(token);
        return this.container.isBound(token.symbol) ? this.container.get(token.symbol) : undefined;
      },
      emit: (event, payload) => this.bus.emit(event, payload),
      on: (event, handler) => {
        const sub = this.bus.on(event).subscribe((payload) => {
          Promise.resolve()
            .then(() => handler(payload))
            .catch((error) =>
              this.report({
                source: 'event',
                extensionId: id,
                message: `handler of '${event.name}' in '${id}' failed: ${describeError(error)}`,
                error,
              }),
            );
        });
        return store.add(toDisposable(() => sub.unsubscribe()));
      },
      events: (event) => this.bus.on(event),
      onDispose: (fn) => {
        store.add(toAsyncDisposable(fn));
      },
      report: (error, detail) =>
        this.report({ source: 'extension', extensionId: id, message: describeError(error), error, detail }),
    };
    const ctx = this.#options.extendContext ? this.#options.extendContext(base, candidate) : (base as Ctx);
    container.bind(ExtensionContextToken.symbol).toConstantValue(ctx);
    return ctx;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
