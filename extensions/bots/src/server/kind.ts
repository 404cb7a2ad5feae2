// Bots as a library resource kind: listed, deleted to the recycle bin, restored, purged, exported, imported and
// published from the library.
import { badRequest } from '@tessera/sdk';
import {
  ResourceKinds,
  SpaceConnectorsService,
  listResourcesOfTable,
  spaceOfTable,
  type ServerContext,
} from '@tessera/sdk/server';
import { BotConfig, BotModes, BotSkills, Connectors } from '../shared/index.ts';
import { publishDraft } from './publishing.ts';
import { botsDb, nowIso, type BotStore } from './store.ts';

export function registerBotKind(ctx: ServerContext<unknown>, bots: BotStore) {
  // Bots in the library: deleted ones wait in the recycle bin, to be restored or deleted for good.
  const deletedBot = async (id: string, spaceId: string) => {
    const m = await botsDb(ctx)
      .selectFrom('bots_meta')
      .select('id')
      .where('id', '=', id)
      .where('space_id', '=', spaceId)
      .where('deleted_at', 'is not', null)
      .executeTakeFirst();
    if (!m) throw badRequest(`There is no deleted bot ${id} in this space.`);
  };
  ctx.register(ResourceKinds, {
    kind: 'bot',
    spaceOf: (id) => spaceOfTable(botsDb(ctx), { table: 'bots_meta', deletedAt: 'deleted_at' }, id),
    list: (q) =>
      listResourcesOfTable(
        botsDb(ctx),
        { kind: 'bot', table: 'bots_meta', deletedAt: 'deleted_at', published: 'latest_version' },
        q,
      ),
    remove: async (id, spaceId) => {
      const b = await bots.meta(id, spaceId);
      await botsDb(ctx).updateTable('bots_meta').set({ deleted_at: nowIso() }).where('id', '=', b.id).execute();
      bots.forgetSpace(b.id);
    },
    restore: async (id, spaceId) => {
      await deletedBot(id, spaceId);
      await botsDb(ctx)
        .updateTable('bots_meta')
        .set({ deleted_at: null, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      bots.forgetSpace(id);
    },
    purge: async (id, spaceId) => {
      await deletedBot(id, spaceId);
      await botsDb(ctx)
        .transaction()
        .execute(async (trx) => {
          for (const table of ['bots_draft', 'bots_commit'] as const)
            await trx.deleteFrom(table).where('bot_id', '=', id).execute();
          await trx.deleteFrom('bots_meta').where('id', '=', id).execute();
        });
      bots.forgetSpace(id);
    },
    // A bot leaves its space with its draft configuration (the resources its skills name stay where they are).
    exportOf: async (id, spaceId) => {
      const b = await bots.meta(id, spaceId);
      const config = (await bots.draft(b.id)).config;
      return [
        {
          kind: 'bot',
          id: b.id,
          name: b.name,
          description: b.description,
          icon_uri: b.icon_uri,
          data: { config },
          requires: { modes: [config.mode], skills: Object.keys(config.skills).sort() },
        },
      ];
    },
    missing: (pkg) => [
      ...(pkg.requires?.modes ?? []).filter((m) => !ctx.registry(BotModes).get(m)).map((m) => `bot mode ${m}`),
      ...(pkg.requires?.skills ?? []).filter((k) => !ctx.registry(BotSkills).get(k)).map((k) => `bot skill ${k}`),
    ],
    // Published with the next version to the chosen connectors that take bots (the API when none does).
    publish: async (id, spaceId, opts) => {
      const b = await bots.meta(id, spaceId);
      const usable = await ctx.service(SpaceConnectorsService).of(spaceId, 'bot');
      const mine = opts.connectors.filter((c) => usable.some((u) => u.id === c));
      return publishDraft(ctx, bots, b, {
        changelog: opts.description,
        connectors: mine.length ? mine : [Connectors.API],
        userId: opts.userId,
      });
    },
    importInto: async (pkg, opts) => {
      const parsed = BotConfig.safeParse((pkg.data as { config?: unknown })?.config);
      if (!parsed.success)
        throw badRequest(
          `"${pkg.name}" is not a bot this studio reads: ${parsed.error.issues[0]?.message ?? 'bad configuration'}.`,
        );
      // Bot names are unique in a space: an import of a name taken is "Name (2)" ...
      return bots.create({
        space_id: opts.spaceId,
        name: await bots.freeName(opts.spaceId, (opts.name ?? pkg.name).slice(0, 100)),
        description: pkg.description ?? '',
        icon_uri: pkg.icon_uri ?? '',
        config: parsed.data,
        creator_id: opts.userId,
      });
    },
  });
}
