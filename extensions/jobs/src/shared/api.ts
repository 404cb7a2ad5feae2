// The batch jobs' routes (spec 000, workflow API "Jobs"), one contract for the server and the pages.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
/** Status of a job and of a task (spec 000): Wait 0, Running 1, Success 2, Fail 3, Cancel 4. */
export const JobStatus = { WAIT: 0, RUNNING: 1, SUCCESS: 2, FAIL: 3, CANCEL: 4 } as const;
/** The largest input file taken (CSV text, or an XLSX workbook as base64). */
export const MAX_FILE_CHARS = 9 * 1024 * 1024;

const Format = z.enum(['csv', 'xlsx']);
const InputFile = {
  format: Format.default('csv'),
  /** CSV as text; XLSX as base64. */
  content: z.string().min(1, 'The file is empty.').max(MAX_FILE_CHARS, 'The file is larger than 9 MB.'),
  file_name: z.string().max(255).default(''),
};

const Column = z.object({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string() });
const CellError = z.object({
  /** The row of the file (the header is row 1); 0 for the file as a whole. */
  row: z.number(),
  /** The column's name ('' for the file or a whole row). */
  column: z.string(),
  message: z.string(),
});

const JobView = z.object({
  job_id: z.string(),
  job_name: z.string(),
  job_type: z.number(),
  space_id: z.string(),
  workflow_id: z.string(),
  workflow_name: z.string(),
  workflow_version: z.string(),
  status: z.number(),
  concurrency: z.number(),
  file_name: z.string(),
  total: z.number(),
  success: z.number(),
  failed: z.number(),
  cancelled: z.number(),
  /** 0..100: the tasks that ended (whichever way). */
  progress: z.number(),
  creator: z.string(),
  create_time: z.number(),
  start_time: z.number(),
  end_time: z.number(),
});
export type JobView = z.output<typeof JobView>;

const TaskView = z.object({
  task_id: z.string(),
  job_id: z.string(),
  /** The task's row in the input file (the header is row 1). */
  row: z.number(),
  status: z.number(),
  input: z.record(z.string(), z.unknown()),
  output: z.record(z.string(), z.unknown()).nullable(),
  error: z.string(),
  execute_id: z.string(),
  attempts: z.number(),
  end_time: z.number(),
});
export type TaskView = z.output<typeof TaskView>;

export const JobInputConfig = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/job_input_config',
  summary: "The columns a job's input file has: the Start inputs of the workflow's latest published version",
  body: z.object({ space_id: Id, workflow_id: Id }),
  response: z.object({ workflow_version: z.string(), columns: z.array(Column) }),
});

export const JobInputTemplate = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/job_input_template',
  summary: 'A file to fill in: a header row of the Start inputs (CSV or XLSX)',
  query: z.object({ space_id: Id, workflow_id: Id, format: Format.default('csv') }),
  response: z.unknown(),
});

export const JobValidateInput = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/job_validate_input',
  summary: "Check an input file against the workflow's Start inputs: errors by row and column",
  body: z.object({ space_id: Id, workflow_id: Id, ...InputFile }),
  response: z.object({
    valid: z.boolean(),
    rows: z.number(),
    columns: z.array(z.string()),
    /** The first 100 errors; `error_count` says how many there are. */
    errors: z.array(CellError),
    error_count: z.number(),
  }),
});

export const JobCreate = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/job_create',
  summary: "Run the workflow's published version over every row of a file (refused while the file has errors)",
  body: z.object({
    space_id: Id,
    workflow_id: Id,
    job_name: z.string().trim().min(1, 'Give the job a name.').max(100),
    /** Rows run at once (1 to 16). */
    concurrency: z.number().int().min(1).max(16).default(4),
    ...InputFile,
  }),
  response: z.object({ job: JobView }),
});

export const JobList = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/job_list',
  summary: "The space's jobs (or one workflow's), newest first",
  body: z.object({
    space_id: Id,
    workflow_id: Id.optional(),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
  }),
  response: z.object({ jobs: z.array(JobView), total: z.number() }),
});

export const JobDetail = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/job_detail',
  summary: 'One job with its counts',
  body: z.object({ space_id: Id, job_id: Id }),
  response: z.object({ job: JobView, columns: z.array(z.string()) }),
});

export const TaskList = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/task_list',
  summary: "A job's tasks in the file's order (or only those of a status)",
  body: z.object({
    space_id: Id,
    job_id: Id,
    status: z.number().int().min(0).max(4).optional(),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(200).default(50),
  }),
  response: z.object({ tasks: z.array(TaskView), total: z.number() }),
});

export const JobCancel = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/job_cancel',
  summary: 'Cancel a job: its waiting tasks are cancelled and its running ones stopped',
  body: z.object({ space_id: Id, job_id: Id }),
  response: z.object({ job: JobView }),
});

export const TaskCancel = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/task_cancel',
  summary: 'Cancel one task that has not ended',
  body: z.object({ space_id: Id, job_id: Id, task_id: Id }),
  response: z.object({ job: JobView }),
});

export const TaskRetry = defineEndpoint({
  method: 'POST',
  path: '/api/workflow_api/task_retry',
  summary: 'Run failed or cancelled tasks again (those named, or all of them)',
  body: z.object({ space_id: Id, job_id: Id, task_ids: z.array(Id).max(10_000).optional() }),
  response: z.object({ job: JobView, retried: z.number() }),
});

export const JobOutput = defineEndpoint({
  method: 'GET',
  path: '/api/workflow_api/job_output',
  summary: "The job's rows with their outputs, status and error (CSV or XLSX)",
  query: z.object({ space_id: Id, job_id: Id, format: Format.default('csv') }),
  response: z.unknown(),
});
