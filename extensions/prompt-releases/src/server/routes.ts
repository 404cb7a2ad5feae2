// Prompt releases' calls: handlers over the release service (made with the first call: runtime.ts). Every change is audited (`audit`), every call
// checks the caller belongs to the space it names.
import type { ApiRequest, ServerContext } from '@tessera/sdk/server';
import {
  CancelReleaseTask,
  CreateReleaseTask,
  DecideReleaseTask,
  GetApprovalConfig,
  GetReleaseTask,
  ListApprovers,
  ListReleaseTasks,
  PreviewRelease,
  ReleaseInfoList,
  RollbackRelease,
  RollbackReleaseTask,
  TriggerSubtask,
  UpdateApprovalConfig,
} from '../shared/api.ts';
import type { Runtime } from './runtime.ts';
import type { Caller } from './service.ts';

const inBody = { space: { from: 'body' as const, field: 'space_id' } };
const callerOf = (req: ApiRequest): Caller => ({ userId: req.caller!.userId, role: req.spaceRole });

export function registerRoutes(ctx: ServerContext<unknown>, runtime: () => Promise<Runtime>) {
  ctx.route({
    ...GetApprovalConfig,
    auth: inBody,
    handler: async (req) => {
      const { store } = await runtime();
      const role = req.spaceRole;
      return { config: await store.config(req.body.space_id), can_edit: role === 'owner' || role === 'admin' };
    },
  });

  ctx.route({
    ...UpdateApprovalConfig,
    auth: inBody,
    audit: { action: 'prompt.release.config_update', target: 'space_id' },
    handler: async (req) => ({
      config: await (await runtime()).service.saveConfig(req.body.space_id, req.body.config, callerOf(req)),
    }),
  });

  ctx.route({
    ...ReleaseInfoList,
    auth: inBody,
    handler: async ({ body }) => (await runtime()).service.info(body.space_id, body.prompt_id),
  });

  ctx.route({
    ...PreviewRelease,
    auth: inBody,
    handler: async ({ body }) => {
      const { service, serve } = await runtime();
      await service.env(body.space_id, body.env);
      await service.info(body.space_id, body.prompt_id);
      return serve(body.prompt_id, body.env, body.user_id || undefined);
    },
  });

  ctx.route({
    ...RollbackRelease,
    auth: inBody,
    audit: { action: 'prompt.release.rollback', target: 'prompt_id' },
    handler: async (req) => {
      const { space_id, prompt_id, env, comment } = req.body;
      const { service } = await runtime();
      await service.info(space_id, prompt_id);
      const task = await service.rollbackEnv(space_id, prompt_id, env, comment, callerOf(req));
      return { task: await service.view(task, callerOf(req)) };
    },
  });

  ctx.route({
    ...CreateReleaseTask,
    auth: inBody,
    audit: { action: 'prompt.release.create', target: 'env' },
    handler: async (req) => {
      const b = req.body;
      const { service } = await runtime();
      const task = await service.create(
        b.space_id,
        {
          env: b.env,
          operation: b.trigger_operation,
          resources: b.release_resources,
          gray: b.gray_release_config,
          comment: b.comment,
        },
        callerOf(req),
      );
      return { task: await service.view(task, callerOf(req)) };
    },
  });

  ctx.route({
    ...GetReleaseTask,
    auth: inBody,
    handler: async (req) => {
      const { service } = await runtime();
      return { task: await service.view(await service.get(req.body.space_id, req.body.task_id), callerOf(req)) };
    },
  });

  ctx.route({
    ...ListReleaseTasks,
    auth: inBody,
    handler: async (req) => {
      const b = req.body;
      const { store, service, taskOf } = await runtime();
      const caller = callerOf(req);
      const config = await store.config(b.space_id);
      // Whether the caller approves here is the same for every task of the list: read once.
      const approver = await service.mayApprove(b.space_id, config, caller.userId);
      if (b.to_approve) {
        // The inbox: what waits for this caller's decision (not their own, unless they may approve those).
        const views = await Promise.all(
          (await store.waiting(b.space_id)).map((r) => service.view(taskOf(r), caller, config, approver)),
        );
        const mine = views.filter((v) => v.can_approve);
        return { tasks: mine.slice((b.page - 1) * b.size, b.page * b.size), total: mine.length };
      }
      const { rows, total } = await store.list(b.space_id, {
        promptId: b.prompt_id,
        status: b.status,
        page: b.page,
        size: b.size,
      });
      return { tasks: await Promise.all(rows.map((r) => service.view(taskOf(r), caller, config, approver))), total };
    },
  });

  ctx.route({
    ...ListApprovers,
    auth: inBody,
    handler: async ({ body }) => {
      const { env, config } = await (await runtime()).service.env(body.space_id, body.env);
      return {
        need_approval: env.need_approval,
        approvers: config.approvers,
        admins_approve: env.need_approval && !config.approvers.length,
      };
    },
  });

  ctx.route({
    ...DecideReleaseTask,
    auth: inBody,
    audit: { action: 'prompt.release.decide', target: 'task_id' },
    handler: async (req) => {
      const b = req.body;
      const { service } = await runtime();
      const task = await service.decide(b.space_id, b.task_id, b.approve, b.reason, callerOf(req));
      return { task: await service.view(task, callerOf(req)) };
    },
  });

  ctx.route({
    ...TriggerSubtask,
    auth: inBody,
    audit: { action: 'prompt.release.trigger', target: 'task_id' },
    handler: async (req) => {
      const b = req.body;
      const { service } = await runtime();
      const task = await service.trigger(b.space_id, b.task_id, b.subtask_key, b.gray_release_config, callerOf(req));
      return { task: await service.view(task, callerOf(req)) };
    },
  });

  ctx.route({
    ...CancelReleaseTask,
    auth: inBody,
    audit: { action: 'prompt.release.cancel', target: 'task_id' },
    handler: async (req) => {
      const { service } = await runtime();
      const task = await service.cancel(req.body.space_id, req.body.task_id, callerOf(req));
      return { task: await service.view(task, callerOf(req)) };
    },
  });

  ctx.route({
    ...RollbackReleaseTask,
    auth: inBody,
    audit: { action: 'prompt.release.rollback', target: 'task_id' },
    handler: async (req) => {
      const { service } = await runtime();
      const task = await service.rollback(req.body.space_id, req.body.task_id, callerOf(req));
      return { task: await service.view(task, callerOf(req)) };
    },
  });
}
