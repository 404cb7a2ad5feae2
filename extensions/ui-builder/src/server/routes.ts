// The builder's calls (/api/ui_builder/v1/...): apps of a space, their drafts (saved over the version they were made
// on), snapshots kept and restored, publishing; the open API's snapshots and published DSL.
import { parseStoredJson } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import {
  CreateUi,
  DeleteUi,
  GetSnapshots,
  GetUi,
  ListUi,
  PublishUi,
  PublishedDsl,
  RestoreSnapshot,
  SaveSnapshot,
  UpdateUi,
} from '../shared/api.ts';
import { Dsl } from '../shared/dsl.ts';
import { iso, secs, type AppRow, type SnapshotRow, type UiStore } from './store.ts';
import { texts } from './texts.ts';

const snapshotView = (s: SnapshotRow) => ({
  snapshot_id: s.id,
  version_code: Number(s.version_code),
  note: s.note,
  created_by: s.created_by,
  created_at: secs(s.created_at),
});

export function registerRoutes(ctx: ServerContext, store: UiStore): void {
  const ofApp = {
    space: async (r: { body?: { ui_id?: unknown }; params?: { app_id?: unknown } }) =>
      (await store.app(String(r.body?.ui_id ?? r.params?.app_id ?? ''))).space_id,
  };
  const snapshot = async (a: AppRow, userId: string, note: string): Promise<SnapshotRow> => {
    const row: SnapshotRow = {
      id: store.newId(),
      ui_id: a.id,
      version_code: Number(a.version_code),
      dsl: a.dsl,
      note,
      created_by: userId,
      created_at: iso(),
    };
    await store.db.insertInto('ui_snapshot').values(row).execute();
    return row;
  };
  ctx.route({
    ...CreateUi,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body, caller }) => {
      const row = await store.create({ spaceId: body.space_id, name: body.ui_name, userId: caller!.userId });
      return { ui: store.view(row) };
    },
  });
  ctx.route({ ...GetUi, auth: ofApp, handler: async ({ body }) => ({ ui: store.view(await store.app(body.ui_id)) }) });
  ctx.route({
    ...ListUi,
    auth: { space: { from: 'body', field: 'space_id' } },
    handler: async ({ body }) => ({
      uis: (
        await store.db
          .selectFrom('ui_app')
          .selectAll()
          .where('space_id', '=', body.space_id)
          .orderBy('updated_at', 'desc')
          .execute()
      ).map((a) => store.view(a)),
    }),
  });
  ctx.route({
    ...UpdateUi,
    auth: ofApp,
    handler: async ({ body }) => {
      const a = await store.app(body.ui_id);
      const dsl = body.dsl === undefined ? undefined : await store.check(body.dsl, a.space_id);
      const set = {
        ...(dsl ? { dsl: JSON.stringify(dsl) } : {}),
        ...(body.ui_name ? { name: body.ui_name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.access ? { access: body.access } : {}),
        version_code: Number(a.version_code) + 1,
        updated_at: iso(),
      };
      const r = await store.db
        .updateTable('ui_app')
        .set(set)
        .where('id', '=', a.id)
        .where('version_code', '=', body.base_version)
        .executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw texts.error(409, 'stale', { now: String(a.version_code) });
      return { ui: store.view(await store.app(a.id)) };
    },
  });
  ctx.route({
    ...DeleteUi,
    auth: ofApp,
    handler: async ({ body }) => {
      await store.remove(await store.app(body.ui_id));
      return {};
    },
  });

  ctx.route({
    ...SaveSnapshot,
    auth: ofApp,
    handler: async ({ body, caller }) => ({
      snapshot: snapshotView(await snapshot(await store.app(body.ui_id), caller!.userId, body.note)),
    }),
  });
  ctx.route({
    ...GetSnapshots,
    auth: ofApp,
    handler: async ({ body }) => {
      const rows = await store.db
        .selectFrom('ui_snapshot')
        .selectAll()
        .where('ui_id', '=', body.ui_id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const one = body.snapshot_id ? rows.find((s) => s.id === body.snapshot_id) : undefined;
      if (body.snapshot_id && !one) throw texts.error(404, 'noSnapshot', { id: body.snapshot_id });
      return { snapshots: rows.map(snapshotView), ...(one ? { dsl: Dsl.parse(JSON.parse(one.dsl)) } : {}) };
    },
  });
  ctx.route({
    ...RestoreSnapshot,
    auth: ofApp,
    handler: async ({ body, caller }) => {
      const a = await store.app(body.ui_id);
      const s = await store.db
        .selectFrom('ui_snapshot')
        .selectAll()
        .where('id', '=', body.snapshot_id)
        .where('ui_id', '=', a.id)
        .executeTakeFirst();
      if (!s) throw texts.error(404, 'noSnapshot', { id: body.snapshot_id });
      await snapshot(a, caller!.userId, `before restoring ${s.note || `version ${s.version_code}`}`.slice(0, 200));
      await store.db
        .updateTable('ui_app')
        .set({ dsl: s.dsl, version_code: Number(a.version_code) + 1, updated_at: iso() })
        .where('id', '=', a.id)
        .execute();
      return { ui: store.view(await store.app(a.id)) };
    },
  });
  ctx.route({
    ...PublishUi,
    auth: ofApp,
    handler: async ({ body, caller }) => {
      const a = await store.publish(await store.app(body.ui_id), caller!.userId, { description: body.description });
      return { ui: store.view(a), path: `/apps/${a.id}` };
    },
  });
  ctx.route({
    ...PublishedDsl,
    auth: ofApp,
    handler: async ({ body }) => {
      const a = await store.app(body.ui_id);
      if (!a.published_dsl) throw texts.error(404, 'notPublished', { id: a.id });
      return { dsl: Dsl.parse(JSON.parse(a.published_dsl)), published_version: Number(a.published_version) };
    },
  });

  // The DSL's JSON Schema (version 1), for tools that write apps.
  let schema: unknown;
  ctx.route({
    method: 'GET',
    path: '/api/ui_builder/v1/dsl/schema',
    response: z.object({ dsl_version: z.number(), schema: z.record(z.string(), z.unknown()) }),
    auth: 'anonymous',
    summary:
      "The JSON Schema of the UI builder's DSL (the shape; the checks of bounds, addresses and ids come on save)",
    handler: async () => ({ dsl_version: 1, schema: (schema ??= z.toJSONSchema(Dsl, { io: 'input' })) }),
  });

  // ------------------------------------------------------------------ open API (Coze's /v1/apps/{app_id}/...)
  ctx.route({
    method: 'POST',
    path: '/v1/apps/:app_id/ui_builder_snapshots',
    response: SaveSnapshot.response,
    auth: ofApp,
    permission: 'app.ui',
    summary: "Keep an app's draft as a snapshot (a token with app.ui)",
    params: z.object({ app_id: z.string().min(1).max(32) }),
    body: z.object({ note: z.string().max(200).default('') }).default({ note: '' }),
    handler: async ({ params, body, caller }) => ({
      snapshot: snapshotView(await snapshot(await store.app(params.app_id), caller!.userId, body.note)),
    }),
  });
  ctx.route({
    method: 'GET',
    path: '/v1/apps/:app_id/ui_builder_dsl',
    response: PublishedDsl.response,
    auth: ofApp,
    permission: 'app.ui',
    summary: "An app's published DSL (a token with app.ui)",
    params: z.object({ app_id: z.string().min(1).max(32) }),
    handler: async ({ params }) => {
      const a = await store.app(params.app_id);
      if (!a.published_dsl) throw texts.error(404, 'notPublished', { id: a.id });
      return {
        dsl: parseStoredJson(a.published_dsl, "the app's published DSL", Dsl),
        published_version: Number(a.published_version),
      };
    },
  });
}
