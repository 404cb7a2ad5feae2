// Prompt releases (server half): environments of a space and what each serves of each prompt (store.ts), release
// tasks with approval, gray release, cancel and roll back (service.ts, routes.ts), and the answer to "which version
// does this environment serve this caller" the prompts' open API asks through PromptVersionSources (gray.ts). The
// code behind the routes loads with the first call that needs it (runtime.ts).
import { defineExtension } from '@tessera/sdk/server';
import { PromptVersionSources } from '@tessera/ext-prompts/shared';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import type { Runtime } from './runtime.ts';
import { texts } from './texts.ts';

export default defineExtension({
  id: 'prompt-releases',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    let made: Promise<Runtime> | undefined;
    const runtime = () => (made ??= import('./runtime.ts').then((m) => m.createRuntime(ctx)));
    ctx.register(PromptVersionSources, {
      key: 'prompt-releases',
      resolve: async ({ promptId, env, caller }) =>
        (await (await runtime()).serve(promptId, env, caller)).version || undefined,
    });
    registerRoutes(ctx, runtime);
  },
});
