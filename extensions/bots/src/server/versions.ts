// A bot's versions compared and merged (spec 002 §7.13: bot_diff, bot_diff_3way, bot_merge): the draft or any
// published version against another, field by field (name, description, persona, model, each skill's settings ...);
// a save from an older draft merged with what was saved meanwhile, conflicts listed for the person to pick.
import type { ServerContext } from '@tessera/sdk/server';
import {
  BotDiff,
  BotDiff3Way,
  BotMerge,
  FullRelease,
  Inactivate,
  ListOperationHistories,
  ListPublishVersions,
  RecordChangelog,
  Rollback,
  UpdateGray,
  type VersionSide as Side,
} from '../shared/versions-api.ts';
import { botError } from './errors.ts';
import { botDetail, checkConfig } from './publishing.ts';
import type { Releases } from './releases.ts';
import type { BotRow, BotStore } from './store.ts';

export function registerVersionRoutes(ctx: ServerContext<unknown>, bots: BotStore, releases: Releases) {
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  registerReleaseRoutes(ctx, bots, releases);
  const sideOf = async (b: BotRow, version: string): Promise<Side> => {
    if (!version) return { name: b.name, description: b.description, config: (await bots.draft(b.id)).config };
    const config = await bots.versionConfig(b.id, version);
    if (!config) throw botError(404, 'bots.versionNotFound');
    return { name: b.name, description: b.description, config };
  };
  // The diff and merge code loads with the first comparison.
  const merging = () => import('@tessera/sdk/merge');
  /** The draft saved now (theirs), and the merge of what ours changed from base with it. */
  const mergeWithDraft = async (b: BotRow, base: Side, ours: Side) => {
    const theirs = await sideOf(b, '');
    return { theirs, ...(await merging()).merge3<Side>(base, ours, theirs) };
  };

  ctx.route({
    ...BotDiff,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      // A version keeps the configuration (the name and description are the bot's, not a version's).
      const { diffJson, diffText, pathKey } = await merging();
      const entries = diffJson(
        { config: (await sideOf(b, body.left_version)).config },
        { config: (await sideOf(b, body.right_version)).config },
      );
      return { diff: entries.map((e) => ({ ...e, key: pathKey(e.path) })), text: diffText(entries) };
    },
  });

  const baseOf = async (b: BotRow, body: { base?: Side; base_version?: string }) => {
    if (body.base) return body.base;
    if (body.base_version) return sideOf(b, body.base_version);
    throw botError(400, 'bots.mergeBase');
  };

  ctx.route({
    ...BotDiff3Way,
    auth: inSpace,
    handler: async ({ body }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      const r = await mergeWithDraft(b, await baseOf(b, body), body.ours);
      const { pathKey } = await merging();
      return {
        merged: r.merged,
        conflicts: r.conflicts.map((c) => ({ ...c, key: pathKey(c.path) })),
        theirs_revision: b.draft_revision,
      };
    },
  });

  ctx.route({
    ...BotMerge,
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      if (body.theirs_revision !== b.draft_revision)
        throw botError(409, 'bots.changed', { mine: body.theirs_revision, saved: b.draft_revision });
      const r = await mergeWithDraft(b, await baseOf(b, body), body.ours);
      const merged = (await merging()).applyChoices(r, body.choices);
      if (merged.name && merged.name !== b.name) await bots.refuseTakenName(b.space_id, merged.name, b.id);
      const saved = await bots.saveDraft(b, caller!.userId, {
        config: checkConfig(ctx, merged.config),
        name: merged.name,
        description: merged.description,
      });
      await releases.record(b.id, caller!.userId, 'merge', '', '', `${r.conflicts.length} conflict(s)`);
      return botDetail(ctx, bots, saved);
    },
  });
}

/**
 * Several versions live on a connector (spec 002 §7.13, under /api/devops/dp/): gray release for a share of the end
 * users or a list of them, full release, rollback to an earlier version, versions taken out of service, changelogs,
 * and the operations done to the versions.
 */
function registerReleaseRoutes(ctx: ServerContext<unknown>, bots: BotStore, releases: Releases) {
  const inSpace = { space: { from: 'body' as const, field: 'space_id' } };
  const write = { kind: 'bot', id: 'bot_id', write: true };
  const overview = async (botId: string) => releases.overview(botId);
  ctx.route({
    ...ListPublishVersions,
    auth: inSpace,
    handler: async ({ body }) => overview((await bots.meta(body.bot_id, body.space_id)).id),
  });
  ctx.route({
    ...UpdateGray,
    resource: write,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.gray(b.id, body.connector_id, caller!.userId, body);
      return overview(b.id);
    },
  });
  ctx.route({
    ...FullRelease,
    resource: write,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.fullRelease(b.id, body.connector_id, caller!.userId);
      return overview(b.id);
    },
  });
  ctx.route({
    ...Rollback,
    resource: write,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.rollback(b.id, body.connector_id, caller!.userId, body.version);
      return overview(b.id);
    },
  });
  ctx.route({
    ...Inactivate,
    resource: write,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.inactivate(b.id, caller!.userId, body.version);
      return overview(b.id);
    },
  });
  ctx.route({
    ...RecordChangelog,
    resource: write,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.changelog(b.id, caller!.userId, body.version, body.changelog);
      return overview(b.id);
    },
  });
  ctx.route({
    ...ListOperationHistories,
    auth: inSpace,
    handler: async ({ body }) => ({
      operations: await releases.operations((await bots.meta(body.bot_id, body.space_id)).id),
    }),
  });
}
