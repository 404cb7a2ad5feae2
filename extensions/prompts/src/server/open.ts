// The open API apps fetch prompts with (a personal access token holding prompt.read): POST /v1/loop/prompts/mget
// (Coze Loop's: by key, with a version or a label, or what an environment serves the caller, or the latest) and
// POST /v1/loop/prompts/render (the messages filled with variables).
import { ApiError, ErrorCode, OpenApiCode, badRequest } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { MGetPrompts, RenderPrompt, type PromptQuery } from '../shared/api.ts';
import { RenderError, render } from './render.ts';
import { detailOf, type PromptStore } from './store.ts';

const missing = (msg: string) => new ApiError(404, ErrorCode.NOT_FOUND, msg, '', { openCode: OpenApiCode.NOT_FOUND });

export function registerOpenApi(ctx: ServerContext<unknown>, store: PromptStore) {
  const resolve = async (spaceId: string, q: PromptQuery) => {
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
    return { p, version, detail: detailOf(c.detail) };
  };

  ctx.route({
    ...MGetPrompts,
    auth: { space: { from: 'body', field: 'workspace_id' } },
    permission: 'prompt.read',
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
    ...RenderPrompt,
    auth: { space: { from: 'body', field: 'workspace_id' } },
    permission: 'prompt.read',
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
