// Request diagnostics (config `diagnostics`, TESSERA_DIAGNOSTICS=1): each API response says how many
// statements its request ran on the main database connection, and how many of them wrote, counting what
// it set going without awaiting. Write-behind batches (timers started with `outsideRequest`) and the bulk
// writer's thread are no request's work. Budget tests
// read these headers (as query-count assertions do in Django and Rails); off by default, it costs nothing.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

export const STATEMENTS_HEADER = 'x-tessera-statements';
export const WRITES_HEADER = 'x-tessera-writes';

interface Counts {
  statements: number;
  writes: number;
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

export class RequestDiagnostics {
  readonly #requests = new AsyncLocalStorage<Counts>();

  /** A Kysely plugin that counts each statement against the request it runs for. */
  readonly plugin: KyselyPlugin = {
    transformQuery: (args: PluginTransformQueryArgs): RootOperationNode => {
      const c = this.#requests.getStore();
      if (c) {
        c.statements++;
        if (WRITES.has(args.node.kind)) c.writes++;
      }
      return args.node;
    },
    transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
  };

  /** Counts from the start of each request; the counts go out with its response. */
  install(app: FastifyInstance): void {
    app.addHook('onRequest', (_request, _reply, done) => this.#requests.run({ statements: 0, writes: 0 }, done));
    app.addHook('onSend', (_request, reply, payload, done) => {
      const c = this.#requests.getStore();
      if (!c) return done(null, payload);
      // What the request set going without waiting for it (a handler of an event it emitted) is its work too:
      // on SQLite such work runs in promise callbacks, all of them done before the next turn of the event loop.
      setImmediate(() => {
        reply.header(STATEMENTS_HEADER, String(c.statements)).header(WRITES_HEADER, String(c.writes));
        done(null, payload);
      });
    });
  }
}
