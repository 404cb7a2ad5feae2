import { defineEvent } from '@tessera/sdk';

export const WorkflowRunFinished = defineEvent<{
  execute_id: string;
  workflow_id: string;
  space_id: string;
  status: number;
  duration_ms: number;
  /** Execute mode (spec 000): TestRun 1, Run 2, NodeDebug 3. */
  execute_mode?: number;
  /** The studio user the run belongs to; the channel and its end user for open-API runs; the bot that ran it. */
  user_id?: string;
  connector_id?: string;
  connector_uid?: string;
  bot_id?: string;
  input_tokens?: number;
  output_tokens?: number;
}>('workflow.run.finished', 'A workflow run ended (success, fail or cancel).');
export const WorkflowPublished = defineEvent<{ workflow_id: string; space_id: string; version: string }>(
  'workflow.published',
  'A workflow version was published.',
);
