// The batch jobs' routes (spec 000: job_list ... job_input_config), each a named handler over the service.
import type { ServerContext } from '@tessera/sdk/server';
import {
  JobCancel,
  JobCreate,
  JobDetail,
  JobInputConfig,
  JobInputTemplate,
  JobList,
  JobOutput,
  JobValidateInput,
  TaskCancel,
  TaskList,
  TaskRetry,
} from '../shared/api.ts';
import type { JobService } from './service.ts';
import { parseStoredStrings } from '@tessera/sdk';

const inBody = { space: { from: 'body' as const, field: 'space_id' } };
const inQuery = { space: { from: 'query' as const, field: 'space_id' } };

/** A file for the browser to save. */
const attachment = (name: string) => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;

export function registerRoutes(ctx: ServerContext, service: JobService): void {
  ctx.route({
    ...JobInputConfig,
    auth: inBody,
    handler: async ({ body }) => {
      const { version, fields } = await service.config(body.space_id, body.workflow_id);
      return {
        workflow_version: version,
        columns: fields.map((f) => ({
          name: f.name,
          type: f.type,
          required: !!f.required,
          description: f.description ?? '',
        })),
      };
    },
  });
  ctx.route({
    ...JobInputTemplate,
    auth: inQuery,
    rawResponse: true,
    handler: async ({ query }, reply) => {
      const file = await service.template(query.space_id, query.workflow_id, query.format);
      reply.header('content-disposition', attachment(file.name));
      reply.send(file.body, file.type);
    },
  });
  ctx.route({
    ...JobValidateInput,
    auth: inBody,
    handler: async ({ body }) => {
      const read = await service.validate(body.space_id, body.workflow_id, body.content, body.format);
      return {
        valid: read.errorCount === 0,
        rows: read.rows.length,
        columns: read.columns,
        errors: read.errors,
        error_count: read.errorCount,
      };
    },
  });
  ctx.route({
    ...JobCreate,
    auth: inBody,
    handler: async ({ body, caller }) => ({ job: await service.create(body, caller!.userId) }),
  });
  ctx.route({
    ...JobList,
    auth: inBody,
    handler: ({ body }) => service.list(body.space_id, body.workflow_id, body.page, body.size),
  });
  ctx.route({
    ...JobDetail,
    auth: inBody,
    handler: async ({ body }) => {
      const job = await service.job(body.space_id, body.job_id);
      return { job: service.view(job), columns: parseStoredStrings(job.columns, 'job columns') };
    },
  });
  ctx.route({
    ...TaskList,
    auth: inBody,
    handler: ({ body }) => service.tasks(body.space_id, body.job_id, body.status, body.page, body.size),
  });
  ctx.route({
    ...JobCancel,
    auth: inBody,
    handler: async ({ body }) => ({ job: await service.cancel(body.space_id, body.job_id) }),
  });
  ctx.route({
    ...TaskCancel,
    auth: inBody,
    handler: async ({ body }) => ({ job: await service.cancelTask(body.space_id, body.job_id, body.task_id) }),
  });
  ctx.route({
    ...TaskRetry,
    auth: inBody,
    handler: ({ body }) => service.retry(body.space_id, body.job_id, body.task_ids),
  });
  ctx.route({
    ...JobOutput,
    auth: inQuery,
    rawResponse: true,
    handler: async ({ query }, reply) => {
      const file = await service.output(query.space_id, query.job_id, query.format);
      reply.header('content-disposition', attachment(file.name));
      reply.send(file.body, file.type);
    },
  });
}
