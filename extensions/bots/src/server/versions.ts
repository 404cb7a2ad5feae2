// A bot's versions compared and merged (spec 002 §7.13: bot_diff, bot_diff_3way, bot_merge): the draft or any
// published version against another, field by field (name, description, persona, model, each skill's settings ...);
// a save from an older draft merged with what was saved meanwhile, conflicts listed for the person to pick.
import type { ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { botError } from './errors.ts';
import { botDetail, checkConfig, Id } from './routes.ts';
import type { Releases } from './releases.ts';
import type { BotRow, BotStore } from './store.ts';

/** What is compared and merged of a bot: its name and description and its configuration. */
const Side = z.object({
  name: z.string().max(100).optional(),
  description: z.string().max(2000).optional(),
  config: z.record(z.string(), z.unknown()),
});
type Side = z.infer<typeof Side>;
/** A version by its name, or the draft (empty or absent). */
const Version = z.string().max(64).default('');
const Choices = z.record(z.string().max(500), z.enum(['ours', 'theirs'])).default({});

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
    method: 'POST',
    path: '/api/playground_api/draftbot/bot_diff',
    auth: inSpace,
    summary:
      "What changed in a bot's configuration between two versions (a version name, or empty for the draft), field by field",
    body: z.object({ space_id: Id, bot_id: Id, left_version: Version, right_version: Version }),
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

  const ThreeWay = {
    space_id: Id,
    bot_id: Id,
    /** What the person's edits started from: its content, or a version (empty: not allowed, the draft moved on). */
    base: Side.optional(),
    base_version: z.string().max(64).optional(),
    ours: Side,
  };
  const baseOf = async (b: BotRow, body: { base?: Side; base_version?: string }) => {
    if (body.base) return body.base;
    if (body.base_version) return sideOf(b, body.base_version);
    throw botError(400, 'bots.mergeBase');
  };

  ctx.route({
    method: 'POST',
    path: '/api/playground_api/draftbot/bot_diff_3way',
    auth: inSpace,
    summary:
      'Merge what the person changed (ours, from base) with the draft saved meanwhile: the merged bot, the conflicts field by field, the draft revision it merges with',
    body: z.object(ThreeWay),
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
    method: 'POST',
    path: '/api/playground_api/draftbot/bot_merge',
    resource: { kind: 'bot', id: 'bot_id', write: true },
    auth: inSpace,
    summary:
      "Save the merge with the person's choices (ours or theirs per conflict; theirs by default); refused if the draft moved on again since theirs_revision",
    body: z.object({
      ...ThreeWay,
      choices: Choices,
      theirs_revision: z.number().int().positive(),
    }),
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
  const base = '/api/devops/dp';
  const Target = { space_id: Id, bot_id: Id };
  const Connector = z.string().min(1).max(64);
  const write = { kind: 'bot', id: 'bot_id', write: true };
  const overview = async (botId: string) => releases.overview(botId);
  ctx.route({
    method: 'POST',
    path: `${base}/list_publish_versions`,
    auth: inSpace,
    summary: 'The published versions (in service or not) and, per connector, who gets which: the version, the gray one',
    body: z.object(Target),
    handler: async ({ body }) => overview((await bots.meta(body.bot_id, body.space_id)).id),
  });
  ctx.route({
    method: 'POST',
    path: `${base}/update_gray`,
    resource: write,
    auth: inSpace,
    summary:
      'Put a version in gray release on a connector: a share of the end users (the same ones as it grows) and, or, a list of them',
    body: z
      .object({
        ...Target,
        connector_id: Connector,
        version: z.string().min(1).max(64),
        percentage: z.number().int().min(0).max(100).default(0),
        user_ids: z.array(z.string().min(1).max(200)).max(1000).default([]),
      })
      .refine((b) => b.percentage > 0 || b.user_ids.length > 0, 'Give a share of the users or some users.'),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.gray(b.id, body.connector_id, caller!.userId, body);
      return overview(b.id);
    },
  });
  ctx.route({
    method: 'POST',
    path: `${base}/full_release`,
    resource: write,
    auth: inSpace,
    summary: 'The version in gray release goes to everyone on the connector',
    body: z.object({ ...Target, connector_id: Connector }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.fullRelease(b.id, body.connector_id, caller!.userId);
      return overview(b.id);
    },
  });
  ctx.route({
    method: 'POST',
    path: `${base}/rollback`,
    resource: write,
    auth: inSpace,
    summary: 'Everyone on the connector gets an earlier version (a gray release ends)',
    body: z.object({ ...Target, connector_id: Connector, version: z.string().min(1).max(64) }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.rollback(b.id, body.connector_id, caller!.userId, body.version);
      return overview(b.id);
    },
  });
  ctx.route({
    method: 'POST',
    path: `${base}/inactivate`,
    resource: write,
    auth: inSpace,
    summary: 'Take a version out of service: where it answered, the latest version in service does',
    body: z.object({ ...Target, version: z.string().min(1).max(64) }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.inactivate(b.id, caller!.userId, body.version);
      return overview(b.id);
    },
  });
  ctx.route({
    method: 'POST',
    path: `${base}/record_changelog`,
    resource: write,
    auth: inSpace,
    summary: "Write a version's changelog",
    body: z.object({ ...Target, version: z.string().min(1).max(64), changelog: z.string().max(2000) }),
    handler: async ({ body, caller }) => {
      const b = await bots.meta(body.bot_id, body.space_id);
      await releases.changelog(b.id, caller!.userId, body.version, body.changelog);
      return overview(b.id);
    },
  });
  ctx.route({
    method: 'POST',
    path: `${base}/list_operation_histories`,
    auth: inSpace,
    summary: "What was done to the bot's versions, newest first: publish, gray, full release, rollback, inactivate ...",
    body: z.object(Target),
    handler: async ({ body }) => ({
      operations: await releases.operations((await bots.meta(body.bot_id, body.space_id)).id),
    }),
  });
}
