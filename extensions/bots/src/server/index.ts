import { defineExtension } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { BotsService, type BotSummary } from '../shared/index.ts';
import { ChatService } from './chat.ts';
import { ConversationStore } from './conversations.ts';
import { migrations } from './migrations.ts';
import { registerOpenApi } from './open.ts';
import { registerBotRoutes } from './routes.ts';
import { BotStore, type BotRow } from './store.ts';

const summary = (b: BotRow): BotSummary => ({ bot_id: b.id, space_id: b.space_id, name: b.name, description: b.description, icon_uri: b.icon_uri, mode: b.mode });

export default defineExtension({
  id: 'bots',
  register(ctx) {
    ctx.migrations(migrations);
    const bots = new BotStore(ctx);
    const conversations = new ConversationStore(ctx);
    const chats = new ChatService(ctx, conversations);
    const deps = { bots, conversations, chats };
    registerBotRoutes(ctx, deps);
    registerOpenApi(ctx, deps);
    ctx.provide(BotsService, {
      get: async (id) => {
        const b = await bots.meta(id).catch(() => undefined);
        return b && summary(b);
      },
      list: async (spaceId) => ((await ctx.db.selectFrom('bots_meta').selectAll().where('space_id', '=', spaceId).where('deleted_at', 'is', null).orderBy('updated_at', 'desc').execute()) as BotRow[]).map(summary),
    });
    for (const [key, en, zh] of [
      ['bot.read', 'Read bots', '查看智能体'],
      ['bot.write', 'Create, change and publish bots', '创建、修改和发布智能体'],
      ['bot.chat', 'Chat with bots and manage conversations', '与智能体对话并管理会话'],
    ] as const) {
      ctx.register(TokenPermissions, { key, label: { 'en-US': en, 'zh-CN': zh }, group: 'bot' });
    }
  },
});
