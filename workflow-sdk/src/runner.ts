import { defineHookPoint, defineService } from '@tessera/sdk';
import type { FieldDecl } from './schema.ts';

/** A run another extension starts (a bot's workflow tool, a chat-flow bot's turn). */
export interface WorkflowRunRequest {
  spaceId: string;
  /** The studio user the run belongs to. */
  userId: string;
  workflowId: string;
  /** A published version, 'draft', or absent for the latest published version. */
  version?: string;
  input: Record<string, unknown>;
  signal?: AbortSignal;
  /** Where the run comes from (recorded with the run, as the open API's runs are). */
  botId?: string;
  connectorId?: string;
  connectorUid?: string;
  logId?: string;
  /** The run's streamed messages (Output and End nodes that answer), as they come. */
  onMessage?(message: { content: string; final: boolean; node_id: string }): void;
  /**
   * The debug scene the call comes from (a bot's debug chat: Coze's traffic scene 10000 and the bot): mock data bound
   * there may answer it instead of a run (`WorkflowCallMocks`). Absent for published bots' calls.
   */
  scene?: { scene: number; caller_id: string };
}

/** A call of a workflow from a debug scene that mock data may answer. */
export interface WorkflowMockQuery {
  spaceId: string;
  userId: string;
  workflowId: string;
  input: Record<string, unknown>;
  scene: { scene: number; caller_id: string };
}
export interface WorkflowMockAnswer {
  output: Record<string, unknown>;
  mock_set_id: string;
  rule_id: string;
  rule_name: string;
}
/**
 * Answers a call of a workflow from a debug scene instead of running it: a bot's debug chat calling it as a tool
 * (`WorkflowRunRequest.scene`), a workflow's test run calling it as a sub-workflow (scene 10003 and the calling
 * workflow). Bail: the first tap that answers wins (the debugger's mock sets). Never asked for published runs or chats.
 */
export const WorkflowCallMocks = defineHookPoint<[WorkflowMockQuery], WorkflowMockAnswer | undefined>({
  id: 'workflow.callMocks',
  owner: 'workflow',
  kind: 'bail',
  description:
    'Mock answers for calls of a workflow from a debug scene (the debugger: a tool in a debug chat, a sub-workflow in a test run).',
  args: ['query'],
});

export interface WorkflowRunResult {
  execute_id: string;
  status: 'success' | 'fail' | 'cancel' | 'interrupted';
  output?: Record<string, unknown>;
  error?: string;
  usage: { input_tokens: number; output_tokens: number };
}

export interface WorkflowSummary {
  workflow_id: string;
  space_id: string;
  name: string;
  description: string;
  flow_mode: number;
  latest_version: string | null;
  /** The Start node's fields of the version that would run (the latest published one, else the draft). */
  inputs: FieldDecl[];
}

/** What other extensions ask of workflows (server side). */
export interface WorkflowRunner {
  /** Runs a workflow of the space; it must belong to `spaceId`. Never throws for a run that fails: see status. */
  run(request: WorkflowRunRequest): Promise<WorkflowRunResult>;
  /** A workflow of the space (throws a clear not-found error otherwise). */
  info(workflowId: string, spaceId: string): Promise<WorkflowSummary>;
  /** The space of a live workflow, or undefined (for routes that locate their space by workflow). */
  spaceOf(workflowId: string): Promise<string | undefined>;
  /**
   * The space's workflows (not chat-flows), newest first, with the names of their End node's outputs in the version
   * that would run (what binds to their output: a card).
   */
  list?(spaceId: string, limit?: number): Promise<(Omit<WorkflowSummary, 'inputs'> & { outputs: string[] })[]>;
}

export const WorkflowRunnerService = defineService<WorkflowRunner>({
  id: 'workflow.runner',
  owner: 'workflow',
  description: 'Run workflows and read their inputs, for other extensions.',
});
