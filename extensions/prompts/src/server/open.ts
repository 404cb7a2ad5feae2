// The open API apps fetch prompts with (a personal access token holding prompt.read): POST /v1/loop/prompts/mget
// (Coze Loop's: by key, with a version or a label, or what an environment serves the caller, or the latest) and
// POST /v1/loop/prompts/render (the messages filled with variables).
import { ApiError, ErrorCode, OpenApiCode, badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { RenderError, render } from './render.ts';
import { detailOf, type PromptStore } from './store.ts';

const Query = z.object({
  prompt_key: z.string().min(1).max(100),
  version: z.string().max(32).optional(),
  label: z.string().max(64).optional(),
  /** The environment released to (dev, staging, production ...); with `user_id`, a gray release applies. */
  env: z.string().max(32).optional(),
  /** The end user the prompt is served for: the same one always gets the same version of a gray release. */
  user_id: z.string().max(128).optional(),
});
const missing = (msg: string) => new ApiError(404, ErrorCode.NOT_FOUND, msg, '', { openCode: OpenApiCode.NOT_FOUND });

export function registerOpenApi(ctx: ServerContext<unknown>, store: PromptStore) {
  const resolve = async (spaceId: string, q: z.infer<typeof Query>) => {
    const p = await store.byKey(spaceId, q.prompt_key);
    if (!p) throw missing(`There is no prompt with the key ${q.prompt_key} in this space.`);
    const version = await store.versionOf(p, { ...q, caller: q.user_id });
    if (!version)
      throw missing(
        q.label
          ? `No version of ${q.prompt_key} has the label ${q.label}.`
          : q.env
            ? `No version of ${q.prompt_key} is released to ${q.env}.`
            : `${q.prompt_key} has no version yet: commit one.`,
      );
    const c = await store.commit(p.id, version);
    if (!c) throw missing(`${q.prompt_key} has no version ${version}.`);
    return { p, version, detail: detailOf(c.detail as string) };
  };

  ctx.route({
    method: 'POST',
    path: '/v1/loop/prompts/mget',
    auth: { space: { from: 'body', field: 'workspace_id' } },
    permission: 'prompt.read',
    summary: 'Prompts by key (and a version or a label; else the latest version), for apps that render them themselves',
    body: z.object({
      workspace_id: z.string().min(1).max(32),
      queries: z.array(Query).min(1, 'Ask for at least one prompt.').max(50),
    }),
    handler: async ({ body }) => {
      const items = [];
      for (const q of body.queries) {
        const { version, detail } = await resolve(body.workspace_id, q);
        items.push({
          query: q,
          prompt: {
            workspace_id: body.workspace_id,
            prompt_key: q.prompt_key,
            version,
            prompt_template: detail.prompt_template,
            tools: detail.tools,
            llm_config: detail.model_config,
          },
        });
      }
      return { items };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/v1/loop/prompts/render',
    auth: { space: { from: 'body', field: 'workspace_id' } },
    permission: 'prompt.read',
    summary: "A prompt's messages filled with variables (by key, and a version or a label; else the latest version)",
    body: Query.extend({
      workspace_id: z.string().min(1).max(32),
      variables: z.record(z.string(), z.unknown()).default({}),
    }),
    handler: async ({ body }) => {
      const { version, detail } = await resolve(body.workspace_id, body);
      try {
        const r = await render(detail, body.variables);
        return {
          prompt_key: body.prompt_key,
          version,
          messages: r.messages,
          missing_variables: r.missing,
          llm_config: detail.model_config,
          tools: detail.tools,
        };
      } catch (e) {
        if (e instanceof RenderError) throw badRequest(e.message, { field: 'variables' });
        throw e;
      }
    },
  });
}
