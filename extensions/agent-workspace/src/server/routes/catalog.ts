// Experts of a space (/api/agent_space/expert/...) and the examples people start tasks from, in categories
// (/api/agent_space/example/list; administrators curate them under /api/agent_space/admin/...).
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import {
  DeleteCategory,
  DeleteExample,
  DeleteExpert,
  ListExamples,
  ListExperts,
  SaveCategory,
  SaveExample,
  SaveExpert,
  type ExampleView,
} from '../../shared/api.ts';
import { iso, type CategoryRow, type ExampleRow, type ExpertRow, type WorkspaceStore } from '../store.ts';
import { texts } from '../texts.ts';

const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
const expertView = (e: ExpertRow) => ({
  expert_id: e.id,
  space_id: e.space_id,
  name: e.name,
  description: e.description,
  persona: e.persona,
  model_id: e.model_id,
  created_at: secs(e.created_at),
});
const exampleView = (e: ExampleRow): ExampleView => ({
  example_id: e.id,
  example_name: e.name,
  example_description: e.description,
  category_id: e.category_id,
  user_query: e.user_query,
  share_id: e.share_id,
  index: Number(e.idx),
  status: e.status,
  official_recommend: !!Number(e.official_recommend),
});
const categoryView = (c: CategoryRow) => ({ category_id: c.id, name: c.name, index: Number(c.idx) });

export function registerCatalogRoutes(ctx: ServerContext, store: WorkspaceStore): void {
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  ctx.route({
    ...ListExperts,
    auth: inSpace,
    handler: async ({ body }) => ({
      experts: (
        await store.db
          .selectFrom('agent_expert')
          .selectAll()
          .where('space_id', '=', body.space_id)
          .orderBy('name')
          .execute()
      ).map(expertView),
    }),
  });
  ctx.route({
    ...SaveExpert,
    auth: inSpace,
    handler: async ({ body }) => {
      if (body.model_id) await ctx.service(ModelsService).get(body.space_id, body.model_id);
      const fields = {
        name: body.name,
        description: body.description,
        persona: body.persona,
        model_id: body.model_id,
      };
      if (body.expert_id) {
        const r = await store.db
          .updateTable('agent_expert')
          .set(fields)
          .where('id', '=', body.expert_id)
          .where('space_id', '=', body.space_id)
          .executeTakeFirst();
        if (!Number(r.numUpdatedRows)) throw texts.error(404, 'noExpert', { id: body.expert_id });
      }
      const id = body.expert_id ?? store.newId();
      if (!body.expert_id)
        await store.db
          .insertInto('agent_expert')
          .values({ id, space_id: body.space_id, ...fields, created_at: iso() })
          .execute();
      const row = await store.db.selectFrom('agent_expert').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { expert: expertView(row) };
    },
  });
  ctx.route({
    ...DeleteExpert,
    auth: inSpace,
    handler: async ({ body }) => {
      const r = await store.db
        .deleteFrom('agent_expert')
        .where('id', '=', body.expert_id)
        .where('space_id', '=', body.space_id)
        .executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw texts.error(404, 'noExpert', { id: body.expert_id });
      return {};
    },
  });

  ctx.route({
    ...ListExamples,
    auth: 'user',
    handler: async ({ body, caller }) => {
      let q = store.db.selectFrom('agent_example').selectAll();
      if (!(body.all && caller?.isPlatformAdmin)) q = q.where('status', '=', 'online');
      if (body.category_id) q = q.where('category_id', '=', body.category_id);
      const [examples, categories] = await Promise.all([
        q.orderBy('official_recommend', 'desc').orderBy('idx').orderBy('name').execute(),
        store.db.selectFrom('agent_example_category').selectAll().orderBy('idx').orderBy('name').execute(),
      ]);
      return { examples: examples.map(exampleView), categories: categories.map(categoryView) };
    },
  });
  ctx.route({
    ...SaveExample,
    auth: 'platformAdmin',
    handler: async ({ body }) => {
      if (body.category_id && !(await category(store, body.category_id)))
        throw texts.error(404, 'noCategory', { id: body.category_id });
      const row: ExampleRow = {
        id: body.example_id ?? store.newId(),
        name: body.example_name,
        description: body.example_description,
        category_id: body.category_id,
        user_query: body.user_query,
        share_id: body.share_id,
        idx: body.index,
        status: body.status,
        official_recommend: body.official_recommend ? 1 : 0,
      };
      if (body.example_id) {
        const r = await store.db.updateTable('agent_example').set(row).where('id', '=', row.id).executeTakeFirst();
        if (!Number(r.numUpdatedRows)) throw texts.error(404, 'noExample', { id: row.id });
      } else await store.db.insertInto('agent_example').values(row).execute();
      return { example: exampleView(row) };
    },
  });
  ctx.route({
    ...DeleteExample,
    auth: 'platformAdmin',
    handler: async ({ body }) => {
      const r = await store.db.deleteFrom('agent_example').where('id', '=', body.example_id).executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw texts.error(404, 'noExample', { id: body.example_id });
      return {};
    },
  });
  ctx.route({
    ...SaveCategory,
    auth: 'platformAdmin',
    handler: async ({ body }) => {
      const row: CategoryRow = { id: body.category_id ?? store.newId(), name: body.name, idx: body.index };
      if (body.category_id) {
        const r = await store.db
          .updateTable('agent_example_category')
          .set(row)
          .where('id', '=', row.id)
          .executeTakeFirst();
        if (!Number(r.numUpdatedRows)) throw texts.error(404, 'noCategory', { id: row.id });
      } else await store.db.insertInto('agent_example_category').values(row).execute();
      return { category: categoryView(row) };
    },
  });
  ctx.route({
    ...DeleteCategory,
    auth: 'platformAdmin',
    handler: async ({ body }) => {
      if (!(await category(store, body.category_id))) throw texts.error(404, 'noCategory', { id: body.category_id });
      await store.db.transaction().execute(async (tx) => {
        await tx
          .updateTable('agent_example')
          .set({ category_id: '' })
          .where('category_id', '=', body.category_id)
          .execute();
        await tx.deleteFrom('agent_example_category').where('id', '=', body.category_id).execute();
      });
      return {};
    },
  });
}

const category = (store: WorkspaceStore, id: string) =>
  store.db.selectFrom('agent_example_category').selectAll().where('id', '=', id).executeTakeFirst();
