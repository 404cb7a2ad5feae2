import { parseStoredObject } from '@tessera/sdk';
// The datasets' open API (/open-api/evaluation/v1/dataset/...): what a program with a personal access token does with
// a space's datasets: create one, add items, clear the draft, pull items page by page. A token needs dataset.write
// (create, insert, clear) or dataset.read (pull) for the dataset's space.
import type { ServerContext } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { OpenClearDataset, OpenCreateDataset, OpenInsertItems, OpenPullItems } from '../shared/api.ts';
import type { DatasetStore } from './store.ts';

export function registerOpenApi(ctx: ServerContext, store: DatasetStore): void {
  ctx.register(TokenPermissions, {
    key: 'dataset.read',
    label: { 'en-US': 'Read datasets', 'zh-CN': '读取数据集' },
    group: 'dataset',
  });
  ctx.register(TokenPermissions, {
    key: 'dataset.write',
    label: { 'en-US': 'Create datasets and change their items', 'zh-CN': '创建数据集并修改数据项' },
    group: 'dataset',
  });
  const ofDataset = {
    space: async (r: { body?: { dataset_id?: unknown } }) =>
      (await store.get(String(r.body?.dataset_id ?? ''))).space_id,
  };

  ctx.route({
    ...OpenCreateDataset,
    auth: { space: { from: 'body', field: 'space_id' } },
    permission: 'dataset.write',
    handler: async ({ body, caller }) => ({ dataset_id: (await store.create(body.space_id, caller!.userId, body)).id }),
  });
  ctx.route({
    ...OpenInsertItems,
    auth: ofDataset,
    permission: 'dataset.write',
    handler: async ({ body }) => {
      const r = await store.addChecked(
        await store.get(body.dataset_id),
        body.items.map((i) => ({ data: i.data, itemKey: i.item_key })),
        { skipInvalidItems: body.skip_invalid_items, allowPartialAdd: body.allow_partial_add },
      );
      return { added: r.added, item_ids: r.itemIDs, errors: r.errors };
    },
  });
  ctx.route({
    ...OpenClearDataset,
    auth: ofDataset,
    permission: 'dataset.write',
    handler: async ({ body }) => {
      const d = await store.get(body.dataset_id);
      const r = await store.db.deleteFrom('dataset_item').where('dataset_id', '=', d.id).executeTakeFirst();
      await store.db.deleteFrom('dataset_item_tag').where('dataset_id', '=', d.id).execute();
      await store.recount(d.id);
      return { removed: Number(r.numDeletedRows) };
    },
  });
  ctx.route({
    ...OpenPullItems,
    auth: ofDataset,
    permission: 'dataset.read',
    handler: async ({ body }) => {
      const d = await store.get(body.dataset_id);
      const after = body.cursor ? Number(body.cursor) : -1;
      const v = body.version_id ? await store.version(d, body.version_id) : undefined;
      const rows = v
        ? await store.db
            .selectFrom('dataset_version_item')
            .select(['item_id as id', 'item_key', 'data', 'position'])
            .where('version_id', '=', v.id)
            .where('position', '>', after)
            .orderBy('position')
            .limit(body.page_size + 1)
            .execute()
        : await store.db
            .selectFrom('dataset_item')
            .select(['id', 'item_key', 'data', 'position'])
            .where('dataset_id', '=', d.id)
            .where('position', '>', after)
            .orderBy('position')
            .limit(body.page_size + 1)
            .execute();
      const page = rows.slice(0, body.page_size);
      return {
        fields: store.fields(v ?? d),
        items: page.map((r) => ({
          item_id: r.id,
          item_key: r.item_key,
          data: parseStoredObject(r.data, "an item's data"),
        })),
        next_cursor: rows.length > body.page_size ? String(page[page.length - 1].position) : '',
        has_more: rows.length > body.page_size,
      };
    },
  });
}
