// A bot's voice (server half): the `voice` skill's settings (voice, language, auto-play) in the bot's configuration,
// and what its chats ask of them: the voice the draft or the published bot speaks in.
import { notFound } from '@tessera/sdk';
import { defineExtension } from '@tessera/sdk/server';
import { BotSkills, BotsService } from '@tessera/ext-bots/shared';
import { BotVoice, DraftBotVoice, PublishedBotVoice } from '@tessera/ext-audio/shared';
import { z } from 'zod';

const Id = z.string().min(1).max(32);

export default defineExtension({
  id: 'bot-voice',
  register(ctx) {
    // Realtime voice chat (/v1/chat over WebSocket): its code loads with the first connection.
    ctx.websocket({
      path: '/v1/chat',
      auth: 'user',
      permission: 'bot.chat',
      summary:
        'Realtime voice chat with a published bot (Coze’s websockets.chat): speech or text in, the answer and its audio out',
      query: z.object({ bot_id: Id, workflow_id: z.string().optional() }),
      handler: async (conn, req) => (await import('./realtime.ts')).voiceChat(ctx, conn, req),
    });
    ctx.register(BotSkills, {
      key: 'voice',
      label: { 'en-US': 'Voice', 'zh-CN': '语音' },
      settings: BotVoice,
      // The voice is the chat's (read aloud, the microphone): the model is told nothing.
      contribute: async () => ({}),
      describe: async (s) => {
        const v = s as BotVoice;
        return { voice_info_list: v.voice_id ? [{ voice_id: v.voice_id, language_code: v.language }] : [] };
      },
    });
    const bots = () => ctx.service(BotsService);
    const voiceOf = async (botId: string, which: 'draft' | 'published') => {
      const raw = await bots().skillSettings(botId, 'voice', which);
      return { voice: raw === undefined ? null : BotVoice.parse(raw) };
    };
    ctx.route({
      ...DraftBotVoice,
      // The draft's voice is for the members of the bot's space (the editor's debug chat).
      auth: {
        space: async (r: { body: { bot_id?: unknown } }) => (await bots().get(String(r.body?.bot_id ?? '')))?.space_id,
      },
      handler: ({ body }) => voiceOf(body.bot_id, 'draft'),
    });
    ctx.route({
      ...PublishedBotVoice,
      auth: 'user',
      handler: async ({ body }) => {
        if (!(await bots().publication(body.bot_id))) throw notFound(`There is no published bot ${body.bot_id}.`);
        return voiceOf(body.bot_id, 'published');
      },
    });
  },
});
