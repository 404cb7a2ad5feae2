// Mock sets of a plugin API, their rules and where they are used (/api/devops/debugger/v1/coze/mockSets...,
// mockRules..., mockSetBindingInfos...). A set is its space's; the space is read from bizCtx or from the set.
import { describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { PluginsService, type PublishedTool } from '@tessera/ext-plugins/shared';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import {
  BindMockSet,
  ComponentType,
  DeleteMockRule,
  DeleteMockSet,
  FeatureGates,
  ListBindings,
  ListMockRules,
  ListMockSets,
  MockSetUsage,
  Ping,
  RequestFilterType,
  SaveMockRule,
  SaveMockSet,
  Scene,
  type ComponentSubject,
} from '../../shared/api.ts';
import { iso, sceneOf, type BindingRow, type DebuggerStore, type MockRuleRow, type MockSetRow } from '../store.ts';
import { texts } from '../texts.ts';

type Body = { body?: Record<string, unknown> };
/** The space named by a request's bizCtx. */
export const bizSpace = {
  space: async (r: Body) => String((r.body?.bizCtx as { bizSpaceID?: unknown })?.bizSpaceID ?? ''),
};

const parse = (text: string, field: string): unknown => {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw texts.error(400, 'badJson', { field, detail: describeError(e) });
  }
};

export function registerMockRoutes(ctx: ServerContext, store: DebuggerStore): void {
  const ofSet = (field: string) => ({
    space: async (r: Body) => (await store.mockSet(String(r.body?.[field] ?? ''))).space_id,
  });
  const ofRule = {
    space: async (r: Body) => (await store.mockSet((await store.rule(String(r.body?.id ?? ''))).mock_set_id)).space_id,
  };
  /** What a subject names in the space (an API's draft, a workflow): its name ("plugin / API", the workflow's). */
  const subjectName = async (spaceId: string, s: ComponentSubject): Promise<string> => {
    if (s.componentType === ComponentType.Workflow) {
      const runner = ctx.optionalService(WorkflowRunnerService);
      if (!runner) throw texts.error(400, 'workflowsOff');
      return (await runner.info(s.componentID, spaceId)).name;
    }
    const tool = await toolOf(spaceId, s);
    return `${tool.plugin_name} / ${tool.name}`;
  };
  /** The API a tool subject names (in the space, its draft). */
  const toolOf = async (spaceId: string, s: ComponentSubject): Promise<PublishedTool> => {
    if (s.componentType !== ComponentType.Tool || !s.parentComponentID) throw texts.error(400, 'notTool');
    const plugins = ctx.optionalService(PluginsService);
    if (!plugins) throw texts.error(400, 'pluginsOff');
    const tool = await plugins.tool(spaceId, s.parentComponentID, s.componentID, 'draft');
    if (!tool) throw texts.error(404, 'noApi', { plugin: s.parentComponentID, id: s.componentID });
    return tool;
  };
  /** Whether a response no longer fits the API's response parameters (a key it does not declare). */
  const fits = (tool: PublishedTool | undefined, rules: MockRuleRow[]) => {
    if (!tool?.response_params.length) return true;
    const names = new Set(tool.response_params.map((p) => p.name));
    return rules.every((r) => {
      try {
        const v: unknown = JSON.parse(r.expect_rule);
        return !v || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).every((k) => names.has(k));
      } catch {
        return false;
      }
    });
  };

  ctx.route({ ...Ping, auth: 'user', handler: () => ({ pong: true }) });
  ctx.route({
    ...FeatureGates,
    auth: 'user',
    handler: ({ body }) => {
      const have: Record<string, boolean> = {
        mockset: !!ctx.optionalService(PluginsService),
        testcase: true,
        mock_autogen: true,
      };
      const names = body.fgNames.length ? body.fgNames : Object.keys(have);
      return { featgates: Object.fromEntries(names.map((n) => [n, have[n] ?? false])) };
    },
  });

  ctx.route({
    ...SaveMockSet,
    auth: bizSpace,
    handler: async ({ body, caller }) => {
      const spaceId = body.bizCtx.bizSpaceID;
      const now = iso();
      if (body.id) {
        const s = await store.mockSet(body.id);
        if (s.space_id !== spaceId) throw texts.error(404, 'noMockSet', { id: body.id });
        await store.db
          .updateTable('debugger_mock_set')
          .set({ name: body.name, description: body.description, updated_at: now })
          .where('id', '=', s.id)
          .execute();
        return { id: s.id };
      }
      await subjectName(spaceId, body.mockSubject);
      const workflow = body.mockSubject.componentType === ComponentType.Workflow;
      const row: MockSetRow = {
        id: store.newId(),
        space_id: spaceId,
        name: body.name,
        description: body.description,
        component_type: workflow ? ComponentType.Workflow : ComponentType.Tool,
        component_id: body.mockSubject.componentID,
        parent_id: workflow ? '' : (body.mockSubject.parentComponentID ?? ''),
        creator_id: caller!.userId,
        created_at: now,
        updated_at: now,
      };
      await store.db.insertInto('debugger_mock_set').values(row).execute();
      return { id: row.id };
    },
  });
  ctx.route({
    ...ListMockSets,
    auth: bizSpace,
    handler: async ({ body }) => {
      let q = store.db.selectFrom('debugger_mock_set').where('space_id', '=', body.bizCtx.bizSpaceID);
      if (body.mockSubject)
        q = q
          .where('component_type', '=', body.mockSubject.componentType)
          .where('component_id', '=', body.mockSubject.componentID);
      if (body.ids?.length) q = q.where('id', 'in', body.ids);
      const offset = Number(body.pageToken) || 0;
      const [rows, count] = await Promise.all([
        q
          .selectAll()
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'desc')
          .limit(body.pageLimit + 1)
          .offset(offset)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ]);
      const page = rows.slice(0, body.pageLimit);
      const tools = new Map<string, Promise<PublishedTool | undefined>>();
      const names = new Map<string, Promise<string>>();
      const subjectOf = (s: MockSetRow): ComponentSubject => ({
        componentID: s.component_id,
        componentType: Number(s.component_type),
        parentComponentID: s.parent_id,
      });
      const toolFor = (s: MockSetRow) => {
        const key = `${s.parent_id}:${s.component_id}`;
        if (Number(s.component_type) !== ComponentType.Tool) return Promise.resolve(undefined);
        if (!tools.has(key))
          tools.set(
            key,
            toolOf(s.space_id, subjectOf(s)).catch(() => undefined),
          );
        return tools.get(key)!;
      };
      const nameOf = (s: MockSetRow) => {
        const key = `${s.component_type}:${s.component_id}`;
        if (!names.has(key))
          names.set(
            key,
            subjectName(s.space_id, subjectOf(s)).catch(() => ''),
          );
        return names.get(key)!;
      };
      return {
        mockSets: await Promise.all(
          page.map(async (s) => {
            const tool = await toolFor(s);
            return store.setView(s, tool ? !fits(tool, await store.rules(s.id)) : false, await nameOf(s));
          }),
        ),
        hasMore: rows.length > body.pageLimit,
        pageToken: rows.length > body.pageLimit ? String(offset + body.pageLimit) : '',
        count: Number(count?.n ?? 0),
      };
    },
  });
  ctx.route({
    ...DeleteMockSet,
    auth: ofSet('id'),
    handler: async ({ body }) => {
      const s = await store.mockSet(body.id);
      await store.db.transaction().execute(async (tx) => {
        await tx.deleteFrom('debugger_mock_rule').where('mock_set_id', '=', s.id).execute();
        await tx.deleteFrom('debugger_mock_binding').where('mock_set_id', '=', s.id).execute();
        await tx.deleteFrom('debugger_mock_set').where('id', '=', s.id).execute();
      });
      return {};
    },
  });
  ctx.route({
    ...MockSetUsage,
    auth: ofSet('mockSetID'),
    handler: async ({ body }) => {
      const rows = await store.db
        .selectFrom('debugger_mock_binding')
        .select(['bound_by'])
        .where('mock_set_id', '=', body.mockSetID)
        .execute();
      return { usersUsageCount: new Set(rows.map((r) => r.bound_by)).size, bindingCount: rows.length };
    },
  });

  ctx.route({
    ...SaveMockRule,
    auth: ofSet('mocksetID'),
    handler: async ({ body, caller }) => {
      const set = await store.mockSet(body.mocksetID);
      parse(body.responseExpect.responseExpectRule, 'responseExpectRule');
      const match = body.requestFilter.requestFilterType === RequestFilterType.Match;
      if (match) {
        const f = parse(body.requestFilter.requestFilterRule || '{}', 'requestFilterRule');
        if (!f || typeof f !== 'object' || Array.isArray(f)) throw texts.error(400, 'filterObject');
      }
      const now = iso();
      const fields = {
        name: body.name,
        description: body.description,
        priority: body.priority,
        filter_type: match ? RequestFilterType.Match : RequestFilterType.ByPass,
        filter_rule: match ? body.requestFilter.requestFilterRule : '',
        expect_type: body.responseExpect.responseExpectType,
        expect_rule: body.responseExpect.responseExpectRule,
        updated_at: now,
      };
      let id = body.id;
      if (id) {
        const r = await store.rule(id);
        if (r.mock_set_id !== set.id) throw texts.error(404, 'noRule', { id });
        await store.db.updateTable('debugger_mock_rule').set(fields).where('id', '=', id).execute();
      } else {
        id = store.newId();
        await store.db
          .insertInto('debugger_mock_rule')
          .values({ id, mock_set_id: set.id, creator_id: caller!.userId, created_at: now, ...fields })
          .execute();
      }
      await store.db.updateTable('debugger_mock_set').set({ updated_at: now }).where('id', '=', set.id).execute();
      return { id };
    },
  });
  ctx.route({
    ...ListMockRules,
    auth: ofSet('mockSetID'),
    handler: async ({ body }) => {
      const all = await store.rules(body.mockSetID);
      const offset = Number(body.pageToken) || 0;
      const page = all.slice(offset, offset + body.pageLimit);
      const more = offset + body.pageLimit < all.length;
      return {
        mockRules: page.map((r) => store.ruleView(r)),
        hasMore: more,
        pageToken: more ? String(offset + body.pageLimit) : '',
        count: all.length,
      };
    },
  });
  ctx.route({
    ...DeleteMockRule,
    auth: ofRule,
    handler: async ({ body }) => {
      await store.db.deleteFrom('debugger_mock_rule').where('id', '=', body.id).execute();
      return {};
    },
  });

  ctx.route({
    ...BindMockSet,
    auth: bizSpace,
    handler: async ({ body, caller }) => {
      const spaceId = body.bizCtx.bizSpaceID;
      const scene = sceneOf(body.bizCtx.trafficScene ?? 0);
      if (![Scene.BotDebug, Scene.WorkflowDebug].includes(scene as 10000) || !body.bizCtx.trafficCallerID)
        throw texts.error(400, 'badScene');
      const where = {
        space_id: spaceId,
        component_type:
          body.mockSubject.componentType === ComponentType.Workflow ? ComponentType.Workflow : ComponentType.Tool,
        component_id: body.mockSubject.componentID,
        scene,
        caller_id: body.bizCtx.trafficCallerID,
      };
      if (body.mockSetID && body.mockSetID !== '0') {
        const s = await store.mockSet(body.mockSetID);
        if (s.space_id !== spaceId) throw texts.error(404, 'noMockSet', { id: body.mockSetID });
        if (s.component_id !== body.mockSubject.componentID || Number(s.component_type) !== where.component_type)
          throw texts.error(400, 'otherComponent', { id: body.mockSetID });
      }
      await store.db.transaction().execute(async (tx) => {
        let q = tx.deleteFrom('debugger_mock_binding');
        for (const [k, v] of Object.entries(where)) q = q.where(k as keyof BindingRow, '=', v);
        await q.execute();
        if (body.mockSetID && body.mockSetID !== '0')
          await tx
            .insertInto('debugger_mock_binding')
            .values({
              id: store.newId(),
              ...where,
              mock_set_id: body.mockSetID,
              bound_by: caller!.userId,
              updated_at: iso(),
            })
            .execute();
      });
      return {};
    },
  });
  ctx.route({
    ...ListBindings,
    auth: bizSpace,
    handler: async ({ body }) => {
      let q = store.db
        .selectFrom('debugger_mock_binding')
        .selectAll()
        .where('space_id', '=', body.bizCtx.bizSpaceID)
        .where('scene', '=', sceneOf(body.bizCtx.trafficScene ?? 0))
        .where('caller_id', '=', body.bizCtx.trafficCallerID ?? '');
      if (body.mockSubject) q = q.where('component_id', '=', body.mockSubject.componentID);
      const rows = await q.execute();
      const details: Record<string, Awaited<ReturnType<DebuggerStore['setView']>>> = {};
      if (body.needMockSetDetail)
        for (const r of rows) details[r.mock_set_id] = await store.setView(await store.mockSet(r.mock_set_id));
      const sets = new Map(
        (rows.length
          ? await store.db
              .selectFrom('debugger_mock_set')
              .select(['id', 'parent_id'])
              .where(
                'id',
                'in',
                rows.map((r) => r.mock_set_id),
              )
              .execute()
          : []
        ).map((s) => [s.id, s.parent_id]),
      );
      return {
        mockSetBindings: rows.map((r) => ({
          mockSetID: r.mock_set_id,
          mockSubject: {
            componentID: r.component_id,
            componentType: Number(r.component_type),
            parentComponentID: sets.get(r.mock_set_id) ?? '',
          },
          bizCtx: { bizSpaceID: r.space_id, trafficScene: Number(r.scene), trafficCallerID: r.caller_id },
        })),
        mockSetDetails: details,
      };
    },
  });
}
