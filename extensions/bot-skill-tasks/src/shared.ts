// The tasks skill's contracts (spec 000, developer family `task/...`): one for the server and the bot editor's panel.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);

/** A task every user of the published bot gets, in their own conversation (the author sets it in the editor). */
export const PresetTask = z.object({
  name: z.string().trim().min(1).max(100),
  cron_expr: z.string().trim().min(1).max(200),
  user_question: z.string().trim().min(1).max(2000),
});
export type PresetTask = z.output<typeof PresetTask>;

/**
 * The skill's settings in a bot's configuration: the time zone of tasks made in chat when the user names none (and
 * of the preset tasks), and the preset tasks.
 */
export const TasksSkillSettings = z.object({
  time_zone: z.string().max(64).default('UTC'),
  presets: z.array(PresetTask).max(10).default([]),
});
export type TasksSkillSettings = z.output<typeof TasksSkillSettings>;

const TaskView = z.object({
  task_id: z.string(),
  bot_id: z.string(),
  name: z.string(),
  /** time (cron or once) or webhook. */
  trigger_type: z.enum(['time', 'webhook']),
  /** Who made it: in the chat (user), in the editor (author), or a preset every user gets (preset). */
  mode: z.enum(['user', 'author', 'preset']),
  cron_expr: z.string(),
  time_zone: z.string(),
  /** A one-off time (seconds), 0 for a repeating task. */
  run_at: z.number(),
  user_question: z.string(),
  end_user_id: z.string(),
  connector_id: z.string(),
  conversation_id: z.string(),
  next_time: z.number(),
  last_time: z.number(),
  last_chat_id: z.string(),
  last_error: z.string(),
  /** Webhook tasks: the address to call (its secret part hidden) and the secret's last characters. */
  webhook_url: z.string(),
  secret_hint: z.string(),
  create_time: z.number(),
});
export type BotTaskView = z.output<typeof TaskView>;

export const CreateBotTask = defineEndpoint({
  method: 'POST',
  path: '/api/task/create_bot_task',
  summary:
    "A task of the published bot: it is asked `user_question` at each time, in the author's conversation on the API channel",
  body: z.object({
    space_id: Id,
    bot_id: Id,
    name: z.string().trim().min(1, 'Give the task a name.').max(100),
    cron_expr: z.string().trim().max(200).optional(),
    /** One time (ISO 8601) instead of a cron. */
    run_at: z.string().max(40).optional(),
    time_zone: z.string().trim().max(64).default('UTC'),
    user_question: z.string().trim().min(1, 'Say what the bot is asked.').max(2000),
  }),
  response: z.object({ task: TaskView }),
});

export const CreateWebhookTask = defineEndpoint({
  method: 'POST',
  path: '/api/task/create_webhook',
  summary:
    "A task asked when its webhook is called (the call's JSON body follows the question); the secret is answered once",
  body: z.object({
    space_id: Id,
    bot_id: Id,
    name: z.string().trim().min(1, 'Give the task a name.').max(100),
    user_question: z.string().trim().min(1, 'Say what the bot is asked.').max(2000),
  }),
  response: z.object({ task: TaskView, webhook_url: z.string(), secret: z.string() }),
});

export const BotTaskList = defineEndpoint({
  method: 'POST',
  path: '/api/task/bot_task_list',
  summary: "A bot's tasks: those its users made in chat and those of its author",
  body: z.object({ space_id: Id, bot_id: Id }),
  response: z.object({ tasks: z.array(TaskView) }),
});

export const RemoveBotTask = defineEndpoint({
  method: 'POST',
  path: '/api/task/remove_bot_task',
  summary: 'Remove a task (it is not asked again)',
  body: z.object({ space_id: Id, task_id: Id }),
  response: z.object({}),
});

export const TriggerTask = defineEndpoint({
  method: 'POST',
  path: '/api/task/trigger_task',
  summary: 'Ask a task now (the answer goes to its conversation)',
  body: z.object({ space_id: Id, task_id: Id }),
  response: z.object({ task: TaskView }),
});

const Presets = z.object({
  /** As the bot's draft has them (published with its next version), and as its published version has them. */
  draft: z.array(PresetTask),
  published: z.array(PresetTask),
});

export const CreatePresetTask = defineEndpoint({
  method: 'POST',
  path: '/api/task/create_preset_task',
  summary: "Add a preset task to the bot's draft: every user of the published bot gets it (the skill is turned on)",
  body: z.object({ space_id: Id, bot_id: Id, ...PresetTask.shape }),
  response: Presets,
});

export const PresetTaskList = defineEndpoint({
  method: 'POST',
  path: '/api/task/task_list',
  summary: "The bot's preset tasks, in its draft and as published",
  body: z.object({ space_id: Id, bot_id: Id }),
  response: Presets,
});

export const RemovePresetTask = defineEndpoint({
  method: 'POST',
  path: '/api/task/remove_task',
  summary: "Remove a preset task (by its name) from the bot's draft",
  body: z.object({ space_id: Id, bot_id: Id, name: z.string().min(1).max(100) }),
  response: Presets,
});

export const TaskIntro = defineEndpoint({
  method: 'POST',
  path: '/api/task/get_task_intro',
  summary: "What the published bot's tasks are, in the caller's language (for a chat page's introduction)",
  body: z.object({ space_id: Id, bot_id: Id }),
  response: z.object({ intro: z.string(), presets: z.array(PresetTask) }),
});
