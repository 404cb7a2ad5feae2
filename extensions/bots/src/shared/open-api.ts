// What the bots' open API answers (Coze's /v3/chat, /v1/conversation..., /v1/bot..., /v1/bots): declared on the
// routes, so /openapi.json describes them and the test suite checks them. The shapes are Coze's, as `@coze/api` reads
// them; times are Unix seconds.
import { z } from 'zod';
import { ConversationView, MessageView } from './api.ts';

export { ChatView, ConversationView, MessageView } from './api.ts';

export const ConversationPage = z.object({ conversations: z.array(ConversationView), has_more: z.boolean() });
export const ClearedSection = z.object({ id: z.string(), conversation_id: z.string() });
export const MessageList = z.array(MessageView);

/** `/v1/conversation/message/list` answers outside the envelope's data, as Coze does. */
export const MessagePage = z.object({
  code: z.literal(0),
  msg: z.string(),
  data: z.array(MessageView),
  first_id: z.string(),
  last_id: z.string(),
  has_more: z.boolean(),
});
export const ModifiedMessage = z.object({ code: z.literal(0), msg: z.string(), message: MessageView });

export const CreatedBot = z.object({ bot_id: z.string() });
export const PublishedBot = z.object({ bot_id: z.string(), version: z.string() });

/**
 * A bot as Coze's bot info shows it. The mode and each skill add their own fields (prompt_info, model_info,
 * workflow_info_list, plugin_info_list, knowledge ...), so fields beyond these are kept as they are.
 */
export const OpenBotInfo = z.looseObject({
  bot_id: z.string(),
  name: z.string(),
  description: z.string(),
  icon_url: z.string(),
  create_time: z.number(),
  update_time: z.number(),
  version: z.string(),
  bot_mode: z.number(),
  onboarding_info: z.object({ prologue: z.string(), suggested_questions: z.array(z.string()) }),
  suggest_reply_info: z.object({
    reply_mode: z.enum(['enable', 'customized', 'disable']),
    customized_prompt: z.string(),
  }),
  shortcut_commands: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      command: z.string(),
      description: z.string(),
      query_template: z.string(),
      icon_url: z.string(),
      components: z.array(z.unknown()),
    }),
  ),
});

export const PublishedBotsList = z.object({
  total: z.number(),
  space_bots: z.array(
    z.object({
      bot_id: z.string(),
      bot_name: z.string(),
      description: z.string(),
      icon_url: z.string(),
      publish_time: z.string(),
    }),
  ),
});

export const WorkspaceBots = z.object({
  total: z.number(),
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      icon_url: z.string(),
      updated_at: z.number(),
      description: z.string(),
      is_published: z.boolean(),
      published_at: z.number().optional(),
      owner_user_id: z.string(),
    }),
  ),
});
