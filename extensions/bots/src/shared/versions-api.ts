// The contracts of a bot's version routes (spec 002 §7.13): compare and merge (bot_diff, bot_diff_3way, bot_merge)
// and the versions live on each connector (/api/devops/dp/: gray release, full release, rollback, inactivate,
// changelog, the operations done). The server's routes and the pages' calls both use them.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';
import { BotInfoView } from './api.ts';
import type { BotConfig } from './bot-types.ts';

const Id = z.string().min(1).max(32);
/** A version by its name, or the draft (empty or absent). */
const Version = z.string().max(64).default('');
const Named = z.string().min(1).max(64);
const Target = { space_id: Id, bot_id: Id };
const Connector = z.string().min(1).max(64);
const JsonPath = z.array(z.union([z.string(), z.number()]));

/** What is compared and merged of a bot: its name and description and its configuration. */
export const VersionSide = z.object({
  name: z.string().max(100).optional(),
  description: z.string().max(2000).optional(),
  /** Checked whole when a merge is saved (the mode, its settings, the skills ...). */
  config: z.custom<BotConfig>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'an object'),
});
export type VersionSide = z.infer<typeof VersionSide>;

const ThreeWay = {
  ...Target,
  /** What the person's edits started from: its content, or a version (empty: not allowed, the draft moved on). */
  base: VersionSide.optional(),
  base_version: z.string().max(64).optional(),
  ours: VersionSide,
};
const Conflict = z.object({
  path: JsonPath,
  key: z.string(),
  base: z.unknown().optional(),
  ours: z.unknown().optional(),
  theirs: z.unknown().optional(),
});

export const BotDiff = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/draftbot/bot_diff',
  summary:
    "What changed in a bot's configuration between two versions (a version name, or empty for the draft), field by field",
  body: z.object({ ...Target, left_version: Version, right_version: Version }),
  response: z.object({
    diff: z.array(
      z.object({
        path: JsonPath,
        key: z.string(),
        kind: z.enum(['added', 'removed', 'changed']),
        before: z.unknown().optional(),
        after: z.unknown().optional(),
      }),
    ),
    text: z.string(),
  }),
});

export const BotDiff3Way = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/draftbot/bot_diff_3way',
  summary:
    'Merge what the person changed (ours, from base) with the draft saved meanwhile: the merged bot, the conflicts field by field, the draft revision it merges with',
  body: z.object(ThreeWay),
  response: z.object({ merged: VersionSide, conflicts: z.array(Conflict), theirs_revision: z.number() }),
});

export const BotMerge = defineEndpoint({
  method: 'POST',
  path: '/api/playground_api/draftbot/bot_merge',
  summary:
    "Save the merge with the person's choices (ours or theirs per conflict; theirs by default); refused if the draft moved on again since theirs_revision",
  body: z.object({
    ...ThreeWay,
    choices: z.record(z.string().max(500), z.enum(['ours', 'theirs'])).default({}),
    theirs_revision: z.number().int().positive(),
  }),
  response: z.object({
    bot_info: BotInfoView,
  }),
});

/** The published versions (in service or not) and, per connector, who gets which. */
export const ReleaseOverview = z.object({
  versions: z.array(
    z.object({
      version: z.string(),
      changelog: z.string(),
      inactive: z.boolean(),
      create_time: z.number(),
      creator_id: z.string(),
    }),
  ),
  connectors: z.array(
    z.object({
      connector_id: z.string(),
      version: z.string().nullable(),
      pinned: z.boolean(),
      gray: z.object({ version: z.string(), percentage: z.number(), user_ids: z.array(z.string()) }).nullable(),
    }),
  ),
});
export type ReleaseOverview = z.infer<typeof ReleaseOverview>;

const dp = '/api/devops/dp';
export const ListPublishVersions = defineEndpoint({
  method: 'POST',
  path: `${dp}/list_publish_versions`,
  summary: 'The published versions (in service or not) and, per connector, who gets which: the version, the gray one',
  body: z.object(Target),
  response: ReleaseOverview,
});
export const UpdateGray = defineEndpoint({
  method: 'POST',
  path: `${dp}/update_gray`,
  summary:
    'Put a version in gray release on a connector: a share of the end users (the same ones as it grows) and, or, a list of them',
  body: z
    .object({
      ...Target,
      connector_id: Connector,
      version: Named,
      percentage: z.number().int().min(0).max(100).default(0),
      user_ids: z.array(z.string().min(1).max(200)).max(1000).default([]),
    })
    .refine((b) => b.percentage > 0 || b.user_ids.length > 0, 'Give a share of the users or some users.'),
  response: ReleaseOverview,
});
export const FullRelease = defineEndpoint({
  method: 'POST',
  path: `${dp}/full_release`,
  summary: 'The version in gray release goes to everyone on the connector',
  body: z.object({ ...Target, connector_id: Connector }),
  response: ReleaseOverview,
});
export const Rollback = defineEndpoint({
  method: 'POST',
  path: `${dp}/rollback`,
  summary: 'Everyone on the connector gets an earlier version (a gray release ends)',
  body: z.object({ ...Target, connector_id: Connector, version: Named }),
  response: ReleaseOverview,
});
export const Inactivate = defineEndpoint({
  method: 'POST',
  path: `${dp}/inactivate`,
  summary: 'Take a version out of service: where it answered, the latest version in service does',
  body: z.object({ ...Target, version: Named }),
  response: ReleaseOverview,
});
export const RecordChangelog = defineEndpoint({
  method: 'POST',
  path: `${dp}/record_changelog`,
  summary: "Write a version's changelog",
  body: z.object({ ...Target, version: Named, changelog: z.string().max(2000) }),
  response: ReleaseOverview,
});
export const ListOperationHistories = defineEndpoint({
  method: 'POST',
  path: `${dp}/list_operation_histories`,
  summary: "What was done to the bot's versions, newest first: publish, gray, full release, rollback, inactivate ...",
  body: z.object(Target),
  response: z.object({
    operations: z.array(
      z.object({
        type: z.string(),
        version: z.string(),
        connector_id: z.string(),
        detail: z.string(),
        create_time: z.number(),
        operator_id: z.string().optional(),
      }),
    ),
  }),
});
