// Agent societies (spec 001, "Multi-agent society", /api/society/...): a host and roles (agents with a persona and a
// model, or people) that speak in turns on a topic; a process runs the turns, the host choosing who speaks next (a
// model, round robin, or rules), until its stop condition or round limit. One contract for the server and the page.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
const Meta = { meta_id: Id };
const Proc = { process_id: Id };
const ok = z.object({});

export const Host = z.object({
  /** model: a model picks the next speaker (and may end the process); round_robin; rules (after a role, the next). */
  mode: z.enum(['model', 'round_robin', 'rules']).default('round_robin'),
  model_id: z.string().max(32).default(''),
  /** What the host knows of the society's aim (the model reads it). */
  instructions: z.string().max(4000).default(''),
  rules: z
    .array(z.object({ after_role_id: z.string().max(32), next_role_id: z.string().max(32) }))
    .max(50)
    .default([]),
});
export type Host = z.infer<typeof Host>;
export const Stop = z.object({
  /** The process ends after this many turns. */
  max_rounds: z.number().int().min(1).max(200).default(10),
  /** A word or phrase that ends the process when a message says it. */
  keyword: z.string().max(100).default(''),
  /** A condition in words the host model judges after each turn (model host only). */
  condition: z.string().max(1000).default(''),
});
export type Stop = z.infer<typeof Stop>;
const Variable = z.object({ name: z.string().trim().min(1).max(64), value: z.string().max(2000) });

const RoleView = z.object({
  role_id: z.string(),
  name: z.string(),
  /** agent: a persona and a model answer; human: a person of the space replies; bot: a published bot of the space. */
  kind: z.enum(['agent', 'human', 'bot']),
  persona: z.string(),
  model_id: z.string(),
  bot_id: z.string(),
  order: z.number(),
});
export type RoleView = z.output<typeof RoleView>;
const RoleInput = z.object({
  name: z.string().trim().min(1, 'Give the role a name.').max(50),
  kind: z.enum(['agent', 'human', 'bot']).default('agent'),
  persona: z.string().max(20_000).default(''),
  model_id: z.string().max(32).default(''),
  /** The published bot that speaks for a bot role (published to the API channel). */
  bot_id: z.string().max(32).default(''),
});

const MetaView = z.object({
  meta_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  host: Host,
  stop: Stop,
  variables: z.array(Variable),
  roles: z.array(RoleView),
  published_version: z.number(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type MetaView = z.output<typeof MetaView>;

export const CreateMeta = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/create',
  summary: 'Make a society (round-robin host, ten rounds, no roles yet)',
  body: z.object({
    space_id: Id,
    name: z.string().trim().min(1, 'Give the society a name.').max(100),
    description: z.string().max(2000).default(''),
  }),
  response: z.object({ meta: MetaView }),
});
export const UpdateMeta = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/update',
  summary: "Change a society's name, description, variables or stop condition",
  body: z.object({
    ...Meta,
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(2000).optional(),
    variables: z.array(Variable).max(50).optional(),
    stop: Stop.optional(),
  }),
  response: z.object({ meta: MetaView }),
});
export const UpdateHost = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/update_society_host',
  summary: "Change how the society's host picks who speaks",
  body: z.object({ ...Meta, host: Host }),
  response: z.object({ meta: MetaView }),
});
export const DeleteMeta = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/delete',
  summary: 'Delete a society with its processes',
  body: z.object(Meta),
  response: ok,
});
export const ListMeta = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/list',
  summary: "The space's societies",
  body: z.object({ space_id: Id }),
  response: z.object({ metas: z.array(MetaView) }),
});
export const MetaDetail = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/detail',
  summary: 'A society with its roles',
  body: z.object(Meta),
  response: z.object({ meta: MetaView }),
});
export const DuplicateMeta = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/duplicate',
  summary: 'Copy a society with its roles (not its processes)',
  body: z.object(Meta),
  response: z.object({ meta: MetaView }),
});
export const PublishMeta = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/publish',
  summary: 'Publish the society: its next version (processes started from it take it as it is now)',
  body: z.object(Meta),
  response: z.object({ meta: MetaView }),
});
export const BatchCreateRoles = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/role/batch_create',
  summary: 'Add roles to a society',
  body: z.object({ ...Meta, roles: z.array(RoleInput).min(1).max(20) }),
  response: z.object({ meta: MetaView }),
});
export const UpdateRole = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/role/update',
  summary: 'Change a role',
  body: z.object({ ...Meta, role_id: Id, ...RoleInput.partial().shape }),
  response: z.object({ meta: MetaView }),
});
export const DeleteRole = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/role/delete',
  summary: 'Take a role out of a society',
  body: z.object({ ...Meta, role_id: Id }),
  response: z.object({ meta: MetaView }),
});
export const MetaRoles = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/get_meta_role_list',
  summary: "A society's roles",
  body: z.object(Meta),
  response: z.object({ roles: z.array(RoleView) }),
});
export const MetaVariables = defineEndpoint({
  method: 'POST',
  path: '/api/society/meta/get_meta_variables',
  summary: "A society's variables",
  body: z.object(Meta),
  response: z.object({ variables: z.array(Variable) }),
});

const MessageView = z.object({
  message_id: z.string(),
  round: z.number(),
  role_id: z.string(),
  role_name: z.string(),
  /** agent, human, host (the host's word: who speaks and why, or why it ends) */
  kind: z.string(),
  content: z.string(),
  created_at: z.number(),
});
export type MessageView = z.output<typeof MessageView>;
const ProcessView = z.object({
  process_id: z.string(),
  meta_id: z.string(),
  topic: z.string(),
  /** created, running, paused, waiting_human (a person's turn), stopped, finished, failed */
  status: z.string(),
  round: z.number(),
  max_rounds: z.number(),
  /** The role whose turn it is when waiting for a person. */
  waiting_role_id: z.string(),
  end_reason: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type ProcessView = z.output<typeof ProcessView>;

export const CreateProcess = defineEndpoint({
  method: 'POST',
  path: '/api/society/process/create_process',
  summary: 'A new process of the society on a topic (the society as it is now); start it with Operate_process',
  body: z.object({ ...Meta, topic: z.string().trim().min(1, 'Give the process a topic.').max(4000) }),
  response: z.object({ process: ProcessView }),
});
export const OperateProcess = defineEndpoint({
  method: 'POST',
  path: '/api/society/process/Operate_process',
  summary: 'Start, pause, resume or stop a process',
  body: z.object({ ...Proc, operation: z.enum(['start', 'pause', 'resume', 'stop']) }),
  response: z.object({ process: ProcessView }),
});
export const ProcessDetail = defineEndpoint({
  method: 'POST',
  path: '/api/society/process/get_process_detail',
  summary: 'A process',
  body: z.object(Proc),
  response: z.object({ process: ProcessView }),
});
export const ListProcesses = defineEndpoint({
  method: 'POST',
  path: '/api/society/process/list',
  summary: "A society's processes, newest first",
  body: z.object(Meta),
  response: z.object({ processes: z.array(ProcessView) }),
});
export const ProcessMemory = defineEndpoint({
  method: 'POST',
  path: '/api/society/process/get_memory',
  summary: "A process's shared memory (topic, variables, the transcript's length) and each role's own notes",
  body: z.object(Proc),
  response: z.object({
    shared: z.object({ topic: z.string(), variables: z.array(Variable), messages: z.number() }),
    roles: z.array(z.object({ role_id: z.string(), name: z.string(), notes: z.array(z.string()) })),
  }),
});
export const ListMessages = defineEndpoint({
  method: 'POST',
  path: '/api/society/message/get_message_list',
  summary: "A process's messages, oldest first",
  body: z.object(Proc),
  response: z.object({ messages: z.array(MessageView) }),
});
export const DeleteMessage = defineEndpoint({
  method: 'POST',
  path: '/api/society/message/delete',
  summary: 'Delete a message of a process (the roles no longer see it)',
  body: z.object({ ...Proc, message_id: Id }),
  response: ok,
});
export const UserReply = defineEndpoint({
  method: 'POST',
  path: '/api/society/user_agent/reply',
  summary: "A person's turn: their role's message; the process goes on",
  body: z.object({ ...Proc, content: z.string().trim().min(1, 'Write the reply.').max(8000) }),
  response: z.object({ process: ProcessView }),
});
