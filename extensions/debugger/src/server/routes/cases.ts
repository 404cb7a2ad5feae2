// A workflow's test cases (/api/devops/debugger/v1/coze/testcase/casedata/...): saved inputs of its test runs, one of
// them the default the test run starts with, a name used once per workflow; the JSON Schema of its inputs.
import { describeError } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import { ModelsService } from '@tessera/ext-models/shared';
import { WorkflowRunnerService, zodOf, type FieldDecl } from '@tessera/workflow-sdk';
import { z } from 'zod';
import {
  CaseSchema,
  CheckCase,
  ComponentType,
  DeleteCases,
  GenerateCases,
  ListCases,
  SaveCase,
  SetDefaultCase,
  type ComponentSubject,
} from '../../shared/api.ts';
import { iso, type CaseRow, type DebuggerStore } from '../store.ts';
import { askForItems } from './generate.ts';
import { texts } from '../texts.ts';
import { bizSpace } from './mocks.ts';

export function registerCaseRoutes(ctx: ServerContext, store: DebuggerStore): void {
  /** The workflow's Start fields (checking it is the space's), or undefined when workflows are off. */
  const fieldsOf = async (spaceId: string, s: ComponentSubject): Promise<FieldDecl[] | undefined> => {
    if (s.componentType !== ComponentType.Workflow) throw texts.error(400, 'notWorkflow');
    const runner = ctx.optionalService(WorkflowRunnerService);
    if (!runner) return undefined;
    return (await runner.info(s.componentID, spaceId)).inputs;
  };
  const fits = (fields: FieldDecl[] | undefined, input: string) => {
    if (!fields) return true;
    try {
      return zodOf(fields).safeParse(JSON.parse(input)).success;
    } catch {
      return false;
    }
  };
  const scoped = (spaceId: string, s: ComponentSubject) =>
    store.db
      .selectFrom('debugger_case')
      .where('space_id', '=', spaceId)
      .where('component_type', '=', ComponentType.Workflow)
      .where('component_id', '=', s.componentID);

  ctx.route({
    ...SaveCase,
    auth: bizSpace,
    handler: async ({ body, caller }) => {
      const spaceId = body.bizCtx.bizSpaceID;
      const fields = await fieldsOf(spaceId, body.bizComponentSubject);
      let input: unknown;
      try {
        input = JSON.parse(body.caseBase.input || '{}');
      } catch (e) {
        throw texts.error(400, 'badJson', { field: 'input', detail: describeError(e) });
      }
      if (!input || typeof input !== 'object' || Array.isArray(input)) throw texts.error(400, 'inputObject');
      const same = await scoped(spaceId, body.bizComponentSubject)
        .select('id')
        .where('name', '=', body.caseBase.name)
        .executeTakeFirst();
      if (same && same.id !== body.caseBase.caseID) throw texts.error(409, 'caseTaken', { name: body.caseBase.name });
      const now = iso();
      const fieldsSet = {
        name: body.caseBase.name,
        description: body.caseBase.description,
        input: JSON.stringify(input),
        is_default: body.caseBase.isDefault ? 1 : 0,
        updater_id: caller!.userId,
        updated_at: now,
      };
      let id = body.caseBase.caseID;
      await store.db.transaction().execute(async (tx) => {
        if (body.caseBase.isDefault)
          await tx
            .updateTable('debugger_case')
            .set({ is_default: 0 })
            .where('space_id', '=', spaceId)
            .where('component_id', '=', body.bizComponentSubject.componentID)
            .execute();
        if (id) {
          const r = await tx
            .updateTable('debugger_case')
            .set(fieldsSet)
            .where('id', '=', id)
            .where('space_id', '=', spaceId)
            .executeTakeFirst();
          if (!Number(r.numUpdatedRows)) throw texts.error(404, 'noCase', { id });
        } else {
          id = store.newId();
          const row: CaseRow = {
            id,
            space_id: spaceId,
            component_type: ComponentType.Workflow,
            component_id: body.bizComponentSubject.componentID,
            creator_id: caller!.userId,
            created_at: now,
            ...fieldsSet,
          };
          await tx.insertInto('debugger_case').values(row).execute();
        }
      });
      const row = await store.case(id!);
      return { caseDetail: store.caseView(row, !fits(fields, row.input)) };
    },
  });
  ctx.route({
    ...ListCases,
    auth: bizSpace,
    handler: async ({ body }) => {
      const spaceId = body.bizCtx.bizSpaceID;
      const fields = await fieldsOf(spaceId, body.bizComponentSubject).catch(() => undefined);
      let q = scoped(spaceId, body.bizComponentSubject);
      if (body.caseName) q = q.where('name', 'like', `%${body.caseName.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
      const offset = Number(body.nextToken) || 0;
      const rows = await q
        .selectAll()
        .orderBy('is_default', 'desc')
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .limit(body.pageLimit + 1)
        .offset(offset)
        .execute();
      const more = rows.length > body.pageLimit;
      return {
        cases: rows.slice(0, body.pageLimit).map((c) => store.caseView(c, !fits(fields, c.input))),
        hasNext: more,
        nextToken: more ? String(offset + body.pageLimit) : '',
      };
    },
  });
  ctx.route({
    ...DeleteCases,
    auth: bizSpace,
    handler: async ({ body }) => {
      const rows = await store.db
        .selectFrom('debugger_case')
        .select('id')
        .where('space_id', '=', body.bizCtx.bizSpaceID)
        .where('id', 'in', body.caseIDs)
        .execute();
      if (rows.length)
        await store.db
          .deleteFrom('debugger_case')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
      return { deletedCaseIDS: rows.map((r) => r.id) };
    },
  });
  ctx.route({
    ...CheckCase,
    auth: bizSpace,
    handler: async ({ body, headers }) => {
      const lang = headers['accept-language'];
      const name = body.caseName.trim();
      if (!name) return { isPass: false, failReason: texts.text('caseName', {}, lang), failCode: 1 };
      const same = await scoped(body.bizCtx.bizSpaceID, body.bizComponentSubject)
        .select('id')
        .where('name', '=', name)
        .executeTakeFirst();
      return same
        ? {
            isPass: false,
            failReason: texts.text('caseTaken', { name }, lang),
            failCode: 2,
          }
        : { isPass: true, failReason: '', failCode: 0 };
    },
  });
  ctx.route({
    ...SetDefaultCase,
    auth: bizSpace,
    handler: async ({ body }) => {
      const c = await store.case(body.caseID);
      if (c.space_id !== body.bizCtx.bizSpaceID) throw texts.error(404, 'noCase', { id: body.caseID });
      await store.db.transaction().execute(async (tx) => {
        await tx
          .updateTable('debugger_case')
          .set({ is_default: 0 })
          .where('space_id', '=', c.space_id)
          .where('component_id', '=', c.component_id)
          .execute();
        await tx.updateTable('debugger_case').set({ is_default: 1 }).where('id', '=', c.id).execute();
      });
      return {};
    },
  });
  ctx.route({
    ...GenerateCases,
    auth: bizSpace,
    handler: async ({ body, caller, signal }) => {
      const spaceId = body.bizCtx.bizSpaceID;
      const fields = await fieldsOf(spaceId, body.bizComponentSubject);
      if (!fields) throw texts.error(400, 'workflowsOff');
      const models = ctx.optionalService(ModelsService);
      if (!models) throw texts.error(400, 'modelsOff');
      const modelId = body.model_id || (await models.defaultModel(spaceId, 'chat'))?.model_id;
      if (!modelId) throw texts.error(400, 'noModel');
      const schema = zodOf(fields);
      const items = (
        await askForItems(models, spaceId, modelId, {
          system:
            'You write test inputs for a workflow: realistic, varied, and covering edge cases. Answer with a JSON ' +
            'array only, each item one object of inputs that fits the schema.',
          lines: [
            `Input schema: ${JSON.stringify(z.toJSONSchema(schema))}`,
            `Write ${body.count} inputs.`,
            body.desc ? `What they should test: ${body.desc}` : '',
          ],
          count: body.count,
          temperature: 0.8,
          signal,
        })
      ).filter((x) => schema.safeParse(x).success);
      if (!items.length) throw texts.error(400, 'noCases');
      const taken = new Set(
        (await scoped(spaceId, body.bizComponentSubject).select('name').execute()).map((c) => c.name),
      );
      const out: CaseRow[] = [];
      const now = iso();
      for (const input of items) {
        let n = 1;
        while (taken.has(`Generated ${n}`)) n++;
        taken.add(`Generated ${n}`);
        const row: CaseRow = {
          id: store.newId(),
          space_id: spaceId,
          component_type: ComponentType.Workflow,
          component_id: body.bizComponentSubject.componentID,
          name: `Generated ${n}`,
          description: body.desc.slice(0, 2000),
          input: JSON.stringify(input),
          is_default: 0,
          creator_id: caller!.userId,
          updater_id: caller!.userId,
          created_at: now,
          updated_at: now,
        };
        await store.db.insertInto('debugger_case').values(row).execute();
        out.push(row);
      }
      return { cases: out.map((c) => store.caseView(c)) };
    },
  });
  ctx.route({
    ...CaseSchema,
    auth: bizSpace,
    handler: async ({ body }) => {
      const fields = await fieldsOf(body.bizCtx.bizSpaceID, body.bizComponentSubject);
      if (!fields) throw texts.error(400, 'workflowsOff');
      return { schemaJson: JSON.stringify(z.toJSONSchema(zodOf(fields))) };
    },
  });
}
