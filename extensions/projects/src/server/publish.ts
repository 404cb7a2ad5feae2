// Publishing a project (Coze's /api/intelligence_api/publish/...): a project version, checked to be greater
// than the last, publishes each of its resources whose kind can publish (bots to the chosen connectors,
// workflows as a new version), and keeps a record of what each got or why it could not.
import { badRequest, notFound, parseStoredJson, messageOf } from '@tessera/sdk';
import { ResourceKinds, SpaceConnectorsService, type ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import {
  CheckVersion,
  GetPublishRecord,
  ListPublishConnectors,
  ListPublishRecords,
  PublishProject,
  PublishRecordView,
} from '../shared/api.ts';
import { now, type ProjectStore, type PublishRow } from './store.ts';

const VERSION = /^v?(\d{1,6})\.(\d{1,6})\.(\d{1,6})$/;
const parts = (v: string) => VERSION.exec(v)!.slice(1).map(Number);
/** a > b for versions like 1.2.3 (a leading v is allowed). */
export const greater = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};
export const PublishStatus = { Published: 1, Partly: 2, Failed: 3 } as const;

export function registerPublishRoutes(ctx: ServerContext<unknown>, store: ProjectStore) {
  const ofProject = {
    space: async (req: { body: { project_id?: string } }) =>
      (await store.get(String(req.body?.project_id ?? ''))).space_id,
  };
  const db = () => store.db;
  const check = (current: string, version: string) => {
    if (!VERSION.test(version)) return 'Use a version number like 1.0.0.';
    if (current && !greater(version, current))
      return `The version must be greater than ${current}, the last one published.`;
    return undefined;
  };

  ctx.route({
    ...CheckVersion,
    auth: ofProject,
    handler: async ({ body }) => {
      const p = await store.get(body.project_id);
      const problem = check(p.version, body.version_number.trim());
      return { is_valid: !problem, msg: problem ?? '', last_version: p.version };
    },
  });

  ctx.route({
    ...ListPublishConnectors,
    auth: ofProject,
    handler: async ({ body }) => {
      const p = await store.get(body.project_id);
      const kinds = new Set(['project', ...(await store.members(p.id)).map((m) => m.kind)]);
      return {
        connectors: (await ctx.service(SpaceConnectorsService).of(p.space_id))
          .filter((c) => c.kinds.some((k) => kinds.has(k)))
          .map((c) => ({
            id: c.id,
            name: c.name,
            description: c.description,
            kinds: c.kinds,
            settings_schema: c.settings ? z.toJSONSchema(c.settings, { io: 'input' }) : undefined,
          })),
      };
    },
  });

  ctx.route({
    ...PublishProject,
    resource: { kind: 'project', id: 'project_id', write: true },
    auth: ofProject,
    handler: async ({ body, caller }) => {
      const p = await store.get(body.project_id);
      const problem = check(p.version, body.version_number);
      if (problem) throw badRequest(problem, { field: 'version_number' });
      const known = new Map((await ctx.service(SpaceConnectorsService).of(p.space_id)).map((c) => [c.id, c]));
      const unknown = body.connectors.filter((c) => !known.has(c));
      if (unknown.length) throw badRequest(`Unknown connector ${unknown.join(', ')}.`);
      // Each chosen connector's settings, checked by the connector (the Web SDK's allowed origins ...).
      const connectorSettings: Record<string, unknown> = {};
      for (const id of body.connectors) {
        const schema = known.get(id)!.settings;
        if (!schema) continue;
        const parsed = schema.safeParse(body.connector_settings[id] ?? {});
        if (!parsed.success)
          throw badRequest(
            `${known.get(id)!.name['en-US'] ?? id}: ${parsed.error.issues[0]?.message ?? 'settings not valid'}`,
            { field: `connector_settings.${id}` },
          );
        connectorSettings[id] = parsed.data;
      }
      const resources = await store.resources(p);
      if (!resources.length) throw badRequest('The project holds no resource to publish; add some first.');
      const results: {
        res_type: string;
        res_id: string;
        name: string;
        status: 'published' | 'failed' | 'skipped';
        version?: string;
        reason?: string;
      }[] = [];
      for (const r of resources) {
        const kind = ctx.registry(ResourceKinds).get(r.kind);
        if (!kind?.publish) {
          results.push({
            res_type: r.kind,
            res_id: r.id,
            name: r.name,
            status: 'skipped',
            reason: 'Resources of this kind are not published.',
          });
          continue;
        }
        try {
          const out = await kind.publish(r.id, p.space_id, {
            userId: caller!.userId,
            description: body.description || `Project ${p.name} ${body.version_number}`,
            connectors: body.connectors,
            settings: connectorSettings,
          });
          results.push({ res_type: r.kind, res_id: r.id, name: r.name, status: 'published', version: out.version });
        } catch (e) {
          results.push({
            res_type: r.kind,
            res_id: r.id,
            name: r.name,
            status: 'failed',
            reason: messageOf(e),
          });
        }
      }
      const ok = results.filter((x) => x.status === 'published').length;
      const failed = results.filter((x) => x.status === 'failed').length;
      const status = failed === 0 ? PublishStatus.Published : ok ? PublishStatus.Partly : PublishStatus.Failed;
      const id = ctx.host.newId();
      await db()
        .insertInto('projects_publish')
        .values({
          id,
          project_id: p.id,
          version: body.version_number,
          description: body.description,
          connectors: JSON.stringify(body.connectors),
          results: JSON.stringify(results),
          status,
          variables: p.variables,
          connector_settings: JSON.stringify(connectorSettings),
          created_by: caller!.userId,
          created_at: now(),
        })
        .execute();
      if (status !== PublishStatus.Failed)
        await db()
          .updateTable('projects_project')
          .set({ version: body.version_number, updated_at: now() })
          .where('id', '=', p.id)
          .execute();
      return { record_id: id, status, results };
    },
  });

  const view = (r: PublishRow): PublishRecordView => ({
    record_id: r.id,
    version: r.version,
    description: r.description,
    connectors: parseStoredJson(r.connectors, "A publication's connectors", PublishRecordView.shape.connectors),
    connector_settings: parseStoredJson(
      r.connector_settings || '{}',
      "A publication's connector settings",
      PublishRecordView.shape.connector_settings,
    ),
    status: Number(r.status),
    results: parseStoredJson(r.results, "A publication's results", PublishRecordView.shape.results),
    creator_id: r.created_by,
    create_time: Math.floor(Date.parse(r.created_at) / 1000),
  });

  ctx.route({
    ...ListPublishRecords,
    auth: ofProject,
    handler: async ({ body }) => {
      const p = await store.get(body.project_id);
      const rows = await db()
        .selectFrom('projects_publish')
        .selectAll()
        .where('project_id', '=', p.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(100)
        .execute();
      return { records: rows.map(view) };
    },
  });

  ctx.route({
    ...GetPublishRecord,
    auth: ofProject,
    handler: async ({ body }) => {
      const p = await store.get(body.project_id);
      const r = await db()
        .selectFrom('projects_publish')
        .selectAll()
        .where('id', '=', body.record_id)
        .where('project_id', '=', p.id)
        .executeTakeFirst();
      if (!r) throw notFound(`There is no publication ${body.record_id} of this project.`);
      return { record: view(r) };
    },
  });
}
