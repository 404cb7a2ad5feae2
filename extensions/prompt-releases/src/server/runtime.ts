// What the routes and the version source use, made with the first call that needs it (not at start): the store, the
// environments' states in memory, and the release service.
import type { ServerContext } from '@tessera/sdk/server';
import { pick, Servings } from './gray.ts';
import { ReleaseService } from './service.ts';
import { ReleaseStore, taskOf, type TaskRow } from './store.ts';

export interface Runtime {
  store: ReleaseStore;
  service: ReleaseService;
  /** The version an environment serves a caller, and whether it is a gray release's. */
  serve(promptId: string, env: string, caller: string | undefined): Promise<{ version: string; gray: boolean }>;
  taskOf: (row: TaskRow) => ReturnType<typeof taskOf>;
}

export function createRuntime(ctx: ServerContext<unknown>): Runtime {
  const store = ctx.resolve(ReleaseStore);
  const servings = ctx.resolve(Servings);
  return {
    store,
    service: ctx.resolve(ReleaseService),
    serve: async (promptId, env, caller) => pick(await servings.get(promptId, env), caller),
    taskOf,
  };
}
