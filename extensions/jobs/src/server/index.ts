// Batch jobs (server half): a published workflow run over the rows of a CSV or XLSX file.
import { defineExtension, ErrorTexts, StudioEventSources } from '@tessera/sdk/server';
import { migrations } from './migrations.ts';
import { registerRoutes } from './routes.ts';
import { JobFinished, JobService, RUN_JOB } from './service.ts';

const STATUS = ['waiting', 'running', 'success', 'failed', 'cancelled'];

const services = new WeakMap<object, JobService>();

export default defineExtension({
  id: 'jobs',
  register(ctx) {
    ctx.migrations(migrations);
    ctx.register(ErrorTexts, {
      key: 'jobs.unpublished',
      texts: {
        'en-US': 'Publish "{{name}}" first: a batch job runs a published version.',
        'zh-CN': '请先发布“{{name}}”：批量任务运行已发布的版本。',
      },
    });
    ctx.register(ErrorTexts, {
      key: 'jobs.taskEnded',
      texts: {
        'en-US': 'That task has ended: only a task that has not can be cancelled.',
        'zh-CN': '该任务已结束：只能取消尚未结束的任务。',
      },
    });
    ctx.register(ErrorTexts, {
      key: 'jobs.stopping',
      texts: { 'en-US': 'The job is still stopping: try again in a moment.', 'zh-CN': '任务仍在停止中，请稍后再试。' },
    });
    // A job's end, for triggers and API apps' callbacks.
    ctx.register(StudioEventSources, {
      key: 'workflow.job.finished',
      label: { 'en-US': 'A batch job ended', 'zh-CN': '批量任务结束' },
      event: JobFinished,
      spaceOf: (p) => p.space_id,
      data: (p) => ({
        job_id: p.job_id,
        workflow_id: p.workflow_id,
        status: STATUS[p.status] ?? String(p.status),
        total: p.total,
        success: p.success,
        failed: p.failed,
        cancelled: p.cancelled,
      }),
      filters: [
        { key: 'workflow_id', label: { 'en-US': 'Workflow', 'zh-CN': '工作流' } },
        { key: 'status', label: { 'en-US': 'Status', 'zh-CN': '状态' }, choices: ['success', 'failed', 'cancelled'] },
      ],
    });
    const service = ctx.resolve(JobService);
    services.set(ctx, service);
    registerRoutes(ctx, service);
    // A job at a time per process runs its own tasks `concurrency` at once.
    ctx.job({
      name: RUN_JOB,
      concurrency: 2,
      handler: (payload, job) => service.run((payload as { job_id: string }).job_id, job.signal),
    });
  },
  async start(ctx) {
    // With several processes a running job may be live elsewhere: those are left alone.
    if (ctx.host.distributed) return;
    const n = await services.get(ctx)!.resume();
    if (n) ctx.logger.info(`jobs: resumed ${n} job(s) a previous stop left waiting or running`);
  },
});
