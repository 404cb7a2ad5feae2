import { defineEvent } from '@tessera/sdk';

export const WorkflowRunFinished = defineEvent<{
  execute_id: string;
  workflow_id: string;
  space_id: string;
  status: number;
  duration_ms: number;
}>('workflow.run.finished', 'A workflow run ended (success, fail or cancel).');
export const WorkflowPublished = defineEvent<{ workflow_id: string; space_id: string; version: string }>(
  'workflow.published',
  'A workflow version was published.',
);
