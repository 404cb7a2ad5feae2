import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ErrorSinks,
  ExtensionHost,
  HostStartError,
  defineEvent,
  defineRegistryPoint,
  defineService,
  ExtensionContextToken,
  silentLogger,
  type ExtensionContext,
  type ExtensionCandidate,
  type ExtensionDefinition,
  type ReportedError,
} from '../src/index.ts';

const Pages = defineRegistryPoint<{ path: string }>({
  id: 'test.pages',
  owner: 'host',
  description: '',
  key: (p) => p.path,
});
const Greeter = defineService<{ greet(n: string): string }>({ id: 'greeter', owner: 'greeter', description: '' });
const Greeted = defineEvent<{ name: string }>('greeter.greeted');

function candidate(def: ExtensionDefinition, requires: string[] = [], optional: string[] = []): ExtensionCandidate {
  return { manifest: { id: def.id, version: '1.0.0', requires, optional }, load: async () => def, source: 'test' };
}

function newHost() {
  const host = new ExtensionHost({ logger: silentLogger, defaultStartTimeoutMs: 200 });
  const reported: ReportedError[] = [];
  host.points.hook(ErrorSinks).tap('host', 'collect', (e) => void reported.push(e));
  return { host, reported };
}

describe('ExtensionHost', () => {
  it('starts in dependency order, shares services to dependents and stops in reverse', async () => {
    const { host } = newHost();
    const log: string[] = [];
    await host.start([
      candidate(
        {
          id: 'user',
          start: (ctx) => void log.push(`start user ${ctx.service(Greeter).greet('ann')}`),
          stop: () => void log.push('stop user'),
        },
        ['greeter'],
      ),
      candidate({
        id: 'greeter',
        register: (ctx) => {
          ctx.provide(Greeter, { greet: (n) => `hello ${n}` });
        },
        start: () => void log.push('start greeter'),
        stop: () => void log.push('stop greeter'),
      }),
    ]);
    await host.stop();
    expect(log).toEqual(['start greeter', 'start user hello ann', 'stop user', 'stop greeter']);
  });

  it('refuses a service of an extension that is not declared as a dependency', async () => {
    const { host, reported } = newHost();
    await host.start([
      candidate({ id: 'greeter', register: (ctx) => void ctx.provide(Greeter, { greet: (n) => n }) }),
      candidate({ id: 'sneaky', start: (ctx) => void ctx.service(Greeter) }),
    ]);
    expect(host.status().find((s) => s.id === 'sneaky')).toMatchObject({ state: 'failed' });
    expect(reported[0].message).toMatch(/without listing 'greeter' in requires or optional/);
  });

  it('rolls back a failing extension, reports it, disables its dependents and goes on', async () => {
    const { host, reported } = newHost();
    await host.start([
      candidate({
        id: 'broken',
        register: (ctx) => void ctx.register(Pages, { path: '/broken' }),
        start: () => {
          throw new Error('database on fire');
        },
      }),
      candidate({ id: 'needs-broken', register: (ctx) => void ctx.register(Pages, { path: '/x' }) }, ['broken']),
      candidate({ id: 'fine', register: (ctx) => void ctx.register(Pages, { path: '/fine' }) }),
    ]);
    const status = Object.fromEntries(host.status().map((s) => [s.id, s]));
    expect(status.broken.state).toBe('failed');
    expect(status.broken.reason).toMatch(/start failed: database on fire/);
    expect(status['needs-broken']).toMatchObject({
      state: 'disabled',
      reason: "requires 'broken', which failed to start",
    });
    expect(status.fine.state).toBe('started');
    expect(
      host.points
        .registry(Pages)
        .list()
        .map((p) => p.path),
    ).toEqual(['/fine']);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ source: 'extension', extensionId: 'broken' });
  });

  it('times out a slow start and aborts the host when the policy says so', async () => {
    const { host } = newHost();
    const slow = candidate({ id: 'slow', start: () => new Promise((r) => setTimeout(r, 2000)) });
    await expect(host.start([slow], () => ({ onFailure: 'abort', startTimeoutMs: 50 }))).rejects.toBeInstanceOf(
      HostStartError,
    );
    expect(host.status()[0].reason).toMatch(/did not finish within 50 ms/);
  });

  it('validates configuration with the extension schema and applies defaults', async () => {
    const { host } = newHost();
    let seen: unknown;
    const def: ExtensionDefinition = {
      id: 'cfg',
      configSchema: z.object({ size: z.number().default(3) }),
      start: (ctx) => void (seen = ctx.config),
    };
    await host.start([candidate(def)]);
    expect(seen).toEqual({ size: 3 });
    const { host: h2 } = newHost();
    await h2.start([candidate(def)], () => ({ config: { size: 'big' } }));
    expect(h2.status()[0].reason).toMatch(/config failed: invalid configuration: size:/);
  });

  it('never imports a disabled extension', async () => {
    const { host } = newHost();
    let imported = false;
    await host.start(
      [
        {
          manifest: { id: 'off', version: '1', requires: [], optional: [] },
          source: 'test',
          load: async () => ((imported = true), { id: 'off' }),
        },
      ],
      () => ({ enabled: false }),
    );
    expect(imported).toBe(false);
    expect(host.status()[0]).toMatchObject({ state: 'disabled', reason: 'disabled by configuration' });
  });

  it('delivers typed events and reports a failing handler', async () => {
    const { host, reported } = newHost();
    const got: string[] = [];
    await host.start([
      candidate({
        id: 'listener',
        register: (ctx) => {
          ctx.on(Greeted, (e) => void got.push(e.name));
          ctx.on(Greeted, () => {
            throw new Error('handler broke');
          });
        },
      }),
    ]);
    host.bus.emit(Greeted, { name: 'bo' });
    // Handlers run after the emit returns (each in its own turn): wait until the failure is reported.
    await vi.waitFor(() => expect(reported).toHaveLength(1));
    expect(got).toEqual(['bo']);
    expect(reported[0].message).toMatch(/handler of 'greeter.greeted' in 'listener' failed: handler broke/);
  });

  it("awaits an extension's disposers as it stops (a last flush), newest first, and reports one that fails", async () => {
    const { host, reported } = newHost();
    const order: string[] = [];
    await host.start([
      candidate({
        id: 'flusher',
        register: (ctx) => {
          ctx.onDispose(async () => {
            await new Promise<void>((r) => setImmediate(r));
            order.push('flushed');
          });
          ctx.onDispose(() => {
            throw new Error('could not close');
          });
          ctx.onDispose(() => void order.push('closed'));
        },
      }),
    ]);
    await host.stop();
    expect(order).toEqual(['closed', 'flushed']);
    expect(reported.map((r) => r.message)).toEqual(['dispose failed: could not close']);
  });

  it('makes a class-provided service when first asked for, with the services its inject list names', async () => {
    const Clock = defineService<{ now(): number }>({ id: 'di.clock', owner: 'clock', description: 'time' });
    const Greeter = defineService<{ greet(name: string): string }>({
      id: 'di.greeter',
      owner: 'greeter',
      description: 'hi',
    });
    let made = 0;
    class Greeting {
      static readonly inject = [Clock] as const;
      readonly clock: { now(): number };
      constructor(clock: { now(): number }) {
        this.clock = clock;
        made++;
      }
      greet(name: string) {
        return `hello ${name} at ${this.clock.now()}`;
      }
    }
    const { host } = newHost();
    let greeter: { greet(name: string): string } | undefined;
    await host.start([
      candidate({ id: 'clock', register: (ctx) => void ctx.provide(Clock, { now: () => 42 }) }),
      candidate({ id: 'greeter', register: (ctx) => void ctx.provideClass(Greeter, Greeting) }, ['clock']),
      candidate({ id: 'user', register: (ctx) => void (greeter = ctx.service(Greeter)) }, ['greeter']),
    ]);
    expect(made).toBe(1);
    expect(greeter!.greet('bo')).toBe('hello bo at 42');
    expect(host.status().map((s) => s.state)).toEqual(['started', 'started', 'started']);
  });

  it('refuses a service class that needs a service its extension does not name', async () => {
    const Secret = defineService<object>({ id: 'di.secret', owner: 'vault', description: 'x' });
    const Mine = defineService<object>({ id: 'di.mine', owner: 'sneaky', description: 'x' });
    const { host } = newHost();
    class Sneaky {
      static readonly inject = [Secret];
    }
    await host.start([candidate({ id: 'sneaky', register: (ctx) => void ctx.provideClass(Mine, Sneaky) })]);
    expect(host.status()[0]).toMatchObject({ state: 'failed' });
    expect(host.status()[0].reason).toMatch(/uses service 'di.secret' of 'vault' without listing 'vault'/);
  });

  it("makes an extension's own classes once, in its child container, with its context and each other", async () => {
    const Clock = defineService<{ now(): number }>({ id: 'di2.clock', owner: 'host', description: 'time' });
    const made: string[] = [];
    class Store {
      static readonly inject = [ExtensionContextToken] as const;
      readonly owner: string;
      constructor(ctx: ExtensionContext) {
        this.owner = ctx.extensionId;
        made.push('store');
      }
    }
    class Runner {
      static readonly inject = [ExtensionContextToken, Store, Clock] as const;
      readonly line: string;
      constructor(ctx: ExtensionContext, store: Store, clock: { now(): number }) {
        this.line = `${ctx.extensionId} runs with the store of ${store.owner} at ${clock.now()}`;
        made.push('runner');
      }
    }
    const lines: string[] = [];
    const part = (id: string) =>
      candidate({
        id,
        register: (ctx) => {
          lines.push(ctx.resolve(Runner).line);
          expect(ctx.resolve(Runner)).toBe(ctx.resolve(Runner));
        },
      });
    const host = new ExtensionHost({ logger: silentLogger, serviceOverrides: [[Clock, { now: () => 7 }]] });
    await host.start([part('one'), part('two')]);
    // Each extension has its own Store and Runner, made once, given its own context.
    expect(lines).toEqual(['one runs with the store of one at 7', 'two runs with the store of two at 7']);
    expect(made).toEqual(['store', 'runner', 'store', 'runner']);
  });

  it("gives a stand-in for an extension's own class, and names a cycle among its classes", async () => {
    class Mailer {
      send() {
        return 'sent for real';
      }
    }
    class Signup {
      static readonly inject = [Mailer] as const;
      readonly mailer: Mailer;
      constructor(mailer: Mailer) {
        this.mailer = mailer;
      }
    }
    let answer = '';
    const host = new ExtensionHost({
      logger: silentLogger,
      serviceOverrides: [[Mailer, { send: () => 'kept by the test' }]],
    });
    await host.start([
      candidate({ id: 'signup', register: (ctx) => void (answer = ctx.resolve(Signup).mailer.send()) }),
    ]);
    expect(answer).toBe('kept by the test');

    class A {
      static inject: unknown[] = [];
    }
    class B {
      static readonly inject = [A];
    }
    A.inject = [B];
    const { host: other } = newHost();
    await other.start([candidate({ id: 'loop', register: (ctx) => void ctx.resolve(A as never) })]);
    expect(other.status()[0]).toMatchObject({ state: 'failed' });
    expect(other.status()[0].reason).toMatch(/dependency cycle: class A -> class B -> class A/);
  });
});
