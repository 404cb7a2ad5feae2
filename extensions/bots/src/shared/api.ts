// The studio's bot calls (draft bots, publishing, the debug chat and the chat page): one contract for the routes,
// the pages and /openapi.json. The views are Coze's draft bot and chat shapes; times are Unix seconds.
import { defineEndpoint } from '@tessera/sdk';
import { imageRef } from '@tessera/sdk';
import { z } from 'zod';
import { BotConfig } from './index.ts';

export const Id = z.string().min(1).max(32);
const Name = z.string().trim().min(1, 'Give the bot a name.').max(100, 'A bot name has at most 100 characters.');
const Description = z.string().max(2000, 'A description has at most 2,000 characters.');
const Icon = imageRef(2_000_000);
const Texts = z.record(z.string(), z.string());
const Done = z.null();
const Target = { space_id: Id, bot_id: Id };

/** A bot as the studio lists it (Coze's draft bot fields). */
export const BotView = z.object({
  bot_id: z.string(),
  space_id: z.string(),
  name: z.string(),
  description: z.string(),
  icon_uri: z.string(),
  mode: z.string(),
  creator_id: z.string(),
  revision: z.number(),
  /** The draft differs from what was last published. */
  has_unpublished_changes: z.boolean(),
  latest_version: z.string().nullable(),
  published_at: z.number().nullable(),
  create_time: z.number(),
  update_time: z.number(),
});
export type BotView = z.output<typeof BotView>;

/** A bot with its draft configuration and what keeps it from being published (the editor's bot_info). */
export const BotInfoView = BotView.extend({ config: BotConfig, problems: z.array(z.string()) });
const WithInfo = z.object({ bot_info: BotInfoView });

/** A message as the chat calls return it (Coze's ChatV3Message). */
export const MessageView = z.object({
  id: z.string(),
  conversation_id: z.string(),
  bot_id: z.string(),
  chat_id: z.string(),
  section_id: z.string(),
  role: z.enum(['user', 'assistant']),
  type: z.string(),
  content: z.string(),
  /** text, object_string or card (an answer showing a tool's output). */
  content_type: z.string(),
  reasoning_content: z.string(),
  /** On an answer, `agent_name` says which agent answered (a bot of several agents); `tool_output` marks a card. */
  meta_data: Texts,
  feedback: z.enum(['like', 'dislike']).optional(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type MessageView = z.output<typeof MessageView>;

/** A chat (one turn): Coze's chat detail. */
export const ChatView = z.object({
  id: z.string(),
  conversation_id: z.string(),
  bot_id: z.string(),
  section_id: z.string(),
  status: z.string(),
  created_at: z.number(),
  completed_at: z.number().optional(),
  failed_at: z.number().optional(),
  last_error: z.object({ code: z.number(), msg: z.string() }),
  required_action: z.unknown().optional(),
  usage: z.object({ token_count: z.number(), output_count: z.number(), input_count: z.number() }),
  meta_data: Texts,
});
export type ChatView = z.output<typeof ChatView>;

export const ConversationView = z.object({
  id: z.string(),
  bot_id: z.string(),
  name: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
  meta_data: Texts,
  last_section_id: z.string(),
  connector_id: z.string(),
});
export type ConversationView = z.output<typeof ConversationView>;

/** A step of a chat's trace: the skills asked, the model, each tool call, the suggestions. */
export const ChatSpan = z.object({
  name: z.string(),
  kind: z.enum(['turn', 'skills', 'model', 'tool', 'suggestions']),
  start_ms: z.number(),
  end_ms: z.number(),
  status: z.enum(['ok', 'error']),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
export type ChatSpan = z.output<typeof ChatSpan>;

const Label = z.record(z.string(), z.string());
export const Capabilities = z.object({
  modes: z.array(z.object({ key: z.string(), code: z.number(), label: Label })),
  skills: z.array(z.object({ key: z.string(), label: Label })),
  /** Where a bot is published; `settings_schema` (JSON Schema) describes what a publication to it takes. */
  connectors: z.array(
    z.object({
      id: z.string(),
      name: Label,
      description: Label.optional(),
      settings_schema: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

// ------------------------------------------------------------------ draft bots

export const GetCapabilities = defineEndpoint({
  method: 'GET',
  path: '/api/draftbot/capabilities',
  summary: "The bot modes and skills this studio runs (from their points), and the connectors of the space's bots",
  query: z.object({ space_id: z.string().max(32).optional() }),
  response: Capabilities,
});

export const CreateBot = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/create',
  summary: 'Create a bot (name, description, icon; single agent unless another mode is chosen)',
  body: z.object({
    space_id: Id,
    name: Name,
    description: Description.default(''),
    icon_uri: Icon.default(''),
    mode: z.string().max(64).optional(),
  }),
  response: z.object({ bot_id: z.string() }),
});

export const ListBots = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/get_draft_bot_list',
  summary: 'Bots of a space: search by name, sort, page',
  body: z.object({
    space_id: Id,
    bot_name: z.string().max(100).optional(),
    order_by: z.enum(['update_time', 'create_time', 'name']).default('update_time'),
    page_index: z.number().int().min(1).default(1),
    page_size: z.number().int().min(1).max(100).default(20),
    is_publish: z.boolean().optional(),
  }),
  response: z.object({ bot_draft_list: z.array(BotView), total: z.number(), has_more: z.boolean() }),
});

export const GetBotInfo = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/draftbot/get_draft_bot_info',
  summary: 'A bot with its draft configuration and what keeps it from being published',
  body: z.object(Target),
  response: WithInfo,
});

export const UpdateBotInfo = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/draftbot/update_draft_bot_info',
  summary: 'Save the draft (name, description, icon, configuration); base_revision detects a save from an older draft',
  body: z.object({
    ...Target,
    base_revision: z.number().int().positive().optional(),
    name: Name.optional(),
    description: Description.optional(),
    icon_uri: Icon.optional(),
    /** Checked whole against the modes and skills that run now (a clear 400 naming what is wrong). */
    config: z.unknown().optional(),
  }),
  response: WithInfo,
});

export const DeleteBot = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/delete',
  summary: 'Delete a bot (its published versions stop answering)',
  body: z.object(Target),
  response: Done,
});

export const DuplicateBot = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/duplicate',
  summary: 'Copy a bot (its draft) in the same space, named "name (2)"',
  body: z.object(Target),
  response: z.object({ bot_id: z.string(), name: z.string() }),
});

export const MoveBot = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/move_draft_bot',
  summary: 'Move a bot to another space you belong to (its conversations stay with it)',
  body: z.object({ ...Target, target_space_id: Id }),
  response: BotView,
});

export const PublishBot = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/publish',
  summary: 'Publish the draft as a version to connectors (API, chat page), with a changelog',
  body: z.object({
    ...Target,
    version: z.string().optional(),
    changelog: z.string().max(2000).default(''),
    connectors: z
      .array(z.string().max(32))
      .min(1, 'Choose where to publish: API, chat page or both.')
      .max(20)
      .default(['1024', '999']),
    connector_settings: z.record(z.string(), z.unknown()).default({}),
  }),
  response: z.object({ version: z.string(), commit_id: z.string(), connectors: z.array(z.string()) }),
});

export const HistoryItem = z.object({
  commit_id: z.string(),
  version: z.string(),
  changelog: z.string(),
  connectors: z.array(z.string()),
  connector_settings: z.record(z.string(), z.unknown()),
  creator_id: z.string(),
  create_time: z.number(),
});
export type HistoryItem = z.output<typeof HistoryItem>;

export const ListBotHistory = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/list_draft_history',
  summary: 'Published versions of a bot, newest first',
  body: z.object(Target),
  response: z.object({ history_infos: z.array(HistoryItem) }),
});

export const RevertBot = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/revert',
  summary: 'Make the draft a published version again (the draft it replaces is not kept)',
  body: z.object({ ...Target, commit_id: Id }),
  response: WithInfo,
});

export const PublishedInfo = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/published_info',
  summary:
    'A published bot as its chat page shows it: name, icon, opening message and questions, shortcuts (any member of the space)',
  body: z.object(Target),
  response: z.object({
    bot_id: z.string(),
    name: z.string(),
    description: z.string(),
    icon_uri: z.string(),
    version: z.string(),
    onboarding: BotConfig.shape.onboarding,
    shortcuts: BotConfig.shape.shortcuts,
  }),
});

export const SpaceProgress = defineEndpoint({
  method: 'POST',
  path: '/api/draftbot/space_progress',
  summary:
    'Where the space stands with bots: how many it has, whether anyone has chatted with one, whether one is published',
  body: z.object({ space_id: Id }),
  response: z.object({ bot_count: z.number(), chatted: z.boolean(), published: z.boolean() }),
});

// ------------------------------------------------------------------ the debug chat and the chat page

/** The debug conversation with the draft (draft: true), or one of the caller's chat-page conversations. */
const Conversation = { ...Target, conversation_id: Id.optional(), draft: z.boolean().default(true) };
const OwnConversation = { ...Target, conversation_id: Id };
const OneMessage = { ...OwnConversation, message_id: Id };
const Section = z.object({ section_id: z.string(), conversation_id: z.string() });

export const ChatBody = z.object({
  ...Conversation,
  query: z.string().max(100_000).default(''),
  regen_chat_id: Id.optional(),
});

export const GetMessages = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/get_message_list',
  summary: 'Messages of the debug conversation (or a chat-page conversation), newest first, paged back with cursor',
  body: z.object({ ...Conversation, cursor: Id.optional(), count: z.number().int().min(1).max(100).default(30) }),
  response: z.object({
    messages: z.array(MessageView),
    /** The chats the messages belong to (status, usage, error). */
    chats: z.array(ChatView),
    has_more: z.boolean(),
    conversation_id: z.string().nullable(),
    section_id: z.string().nullable(),
  }),
});

export const NewSection = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/create_section',
  summary: 'Clear the context: later answers no longer see the earlier messages (they stay in the history)',
  body: z.object(Conversation),
  response: Section,
});

export const ClearMessages = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/clear_message',
  summary: 'Delete every message of the conversation',
  body: z.object(Conversation),
  response: Section,
});

export const DeleteMessage = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/delete_message',
  summary: "Delete a message (a question takes its chat's answers with it)",
  body: z.object(OneMessage),
  response: z.object({ deleted: z.array(z.string()) }),
});

export const BreakMessage = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/break_message',
  summary: 'Stop an answer while it streams (the model request is aborted; what came so far is kept)',
  body: z.object({ ...OwnConversation, chat_id: Id }),
  response: z.object({ stopped: z.boolean() }),
});

export const GetChatTrace = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/get_chat_trace',
  summary: "A chat's trace: the skills asked, each tool call, the answer's first and last token, with their times",
  body: z.object({ ...OwnConversation, chat_id: Id }),
  response: z.object({ chat: ChatView, spans: z.array(ChatSpan) }),
});

export const ReportMessage = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/message/report',
  summary: 'Like or dislike an answer (null takes it back)',
  body: z.object({ ...OneMessage, feedback: z.enum(['like', 'dislike']).nullable() }),
  response: MessageView,
});

export const ListConversations = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/list',
  summary: 'Your conversations with a published bot on its chat page, latest first',
  body: z.object({
    ...Target,
    page_index: z.number().int().min(1).default(1),
    page_size: z.number().int().min(1).max(100).default(50),
  }),
  response: z.object({ conversations: z.array(ConversationView), has_more: z.boolean() }),
});

export const DeleteConversation = defineEndpoint({
  method: 'POST',
  path: '/api/conversation/delete',
  summary: 'Delete one of your chat-page conversations with its messages',
  body: z.object(OwnConversation),
  response: Done,
});
