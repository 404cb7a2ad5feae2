// Prompts (server half): the library per space (routes.ts), the playground (debug.ts), the open API apps fetch
// and render prompts with (open.ts); a resource kind (library, recycle bin, copies) and PromptsService.
import { defineExtension, listResourcesOfTable, ResourceKinds } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { badRequest, notFound } from '@tessera/sdk';
import { z } from 'zod';
import { PromptDetail, PromptsService } from '../shared/index.ts';
import { registerDebug } from './debug.ts';
import { migrations } from './migrations.ts';
import { registerOpenApi } from './open.ts';
import { render } from './render.ts';
import { registerPromptRoutes } from './routes.ts';
import { detailOf, now, PromptStore } from './store.ts';

export default defineExtension({
  id: 'prompts',
  register(ctx) {
    ctx.migrations(migrations);
    const store = ctx.resolve(PromptStore);
    registerPromptRoutes(ctx, store);
    registerDebug(ctx, store);
    registerOpenApi(ctx, store);
    ctx.register(TokenPermissions, {
      key: 'prompt.read',
      label: { 'en-US': 'Fetch and render prompts', 'zh-CN': '获取并渲染提示词' },
      group: 'prompt',
    });
    ctx.provide(PromptsService, {
      async resolve(spaceId, key, ref = {}) {
        const p = await store.byKey(spaceId, key);
        const version = p && (await store.versionOf(p, ref));
        const c = p && version ? await store.commit(p.id, version) : undefined;
        return p && c
          ? {
              prompt_id: p.id,
              prompt_key: p.prompt_key,
              version: c.version,
              detail: detailOf(c.detail),
            }
          : undefined;
      },
      async byId(spaceId, promptId) {
        const p = await store.get(promptId, spaceId).catch(() => undefined);
        return p && { prompt_id: p.id, prompt_key: p.prompt_key, name: p.name, latest_version: p.latest_version };
      },
      render,
      async list(spaceId) {
        const rows = await store.db
          .selectFrom('prompts_prompt')
          .select(['prompt_key', 'name'])
          .where('space_id', '=', spaceId)
          .where('deleted_at', 'is', null)
          .where('latest_version', '!=', '')
          .orderBy('name')
          .limit(500)
          .execute();
        return rows.map((r) => ({ prompt_key: r.prompt_key, name: r.name }));
      },
      // One prompt's versions only: reading every commit of every prompt to list them would be the whole table.
      async versions(spaceId, key) {
        const p = await store.byKey(spaceId, key);
        if (!p) return undefined;
        const [commits, labels] = await Promise.all([
          store.db
            .selectFrom('prompts_commit')
            .select(['version', 'detail'])
            .where('prompt_id', '=', p.id)
            .orderBy('created_at', 'desc')
            .execute(),
          store.db
            .selectFrom('prompts_label')
            .select(['label', 'version'])
            .where('prompt_id', '=', p.id)
            .orderBy('label')
            .execute(),
        ]);
        return {
          versions: commits.map((c) => ({
            version: c.version,
            has_model: !!detailOf(c.detail).model_config.model_id,
          })),
          labels: labels.map((l) => ({ label: l.label, version: l.version })),
        };
      },
    });
    // Prompts in the library: delete (into the bin), restore, and copies that take the draft along.
    const soft = async (id: string, spaceId: string, deleted: string | null) => {
      const p = await store.db
        .selectFrom('prompts_prompt')
        .selectAll()
        .where('id', '=', id)
        .where('space_id', '=', spaceId)
        .executeTakeFirst();
      if (!p) throw notFound(`There is no prompt ${id} in this space.`);
      if (!deleted && (await store.byKey(spaceId, p.prompt_key)))
        throw badRequest(`Another prompt has the key ${p.prompt_key} now; change one first.`);
      await store.db.updateTable('prompts_prompt').set({ deleted_at: deleted }).where('id', '=', id).execute();
    };
    ctx.register(ResourceKinds, {
      kind: 'prompt',
      list: (q) =>
        listResourcesOfTable(
          ctx.db,
          { kind: 'prompt', table: 'prompts_prompt', deletedAt: 'deleted_at', published: 'latest_version' },
          q,
        ),
      remove: (id, spaceId) => soft(id, spaceId, now()),
      restore: (id, spaceId) => soft(id, spaceId, null),
      purge: async (id, spaceId) => {
        const p = await store.db
          .selectFrom('prompts_prompt')
          .select('id')
          .where('id', '=', id)
          .where('space_id', '=', spaceId)
          .executeTakeFirst();
        if (!p) return;
        for (const t of ['prompts_commit', 'prompts_label', 'prompts_debug'] as const)
          await store.db.deleteFrom(t).where('prompt_id', '=', id).execute();
        await store.db.deleteFrom('prompts_prompt').where('id', '=', id).execute();
      },
      exportOf: async (id, spaceId) => {
        const p = await store.get(id, spaceId);
        return [
          {
            kind: 'prompt',
            id: p.id,
            name: p.name,
            description: p.description,
            data: { prompt_key: p.prompt_key, detail: detailOf(p.draft) },
          },
        ];
      },
      importInto: async (pkg, opts) => {
        const data = z.object({ prompt_key: z.string().min(1).max(100), detail: PromptDetail }).safeParse(pkg.data);
        if (!data.success) throw badRequest(`"${pkg.name}" is not a prompt this studio reads.`);
        let key = data.data.prompt_key.slice(0, 90);
        for (let n = 2; n < 1000 && (await store.byKey(opts.spaceId, key)); n++)
          key = `${data.data.prompt_key.slice(0, 90)}_${n}`;
        const id = ctx.host.newId();
        const t = now();
        await store.db
          .insertInto('prompts_prompt')
          .values({
            id,
            space_id: opts.spaceId,
            prompt_key: key,
            name: (opts.name ?? pkg.name).slice(0, 100),
            description: pkg.description ?? '',
            creator_id: opts.userId,
            draft: JSON.stringify(data.data.detail),
            draft_base_version: '',
            draft_modified: 1,
            latest_version: '',
            created_at: t,
            updated_at: t,
            deleted_at: null,
          })
          .execute();
        return id;
      },
    });
  },
});
