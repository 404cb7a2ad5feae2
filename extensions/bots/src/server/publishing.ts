// Publishing a bot's draft: the problems that keep it back, the connectors it may go to, the version it becomes.
// The studio's publish, the open API's and the library's share it.
import { badRequest } from '@tessera/sdk';
import { SpaceConnectorsService, type ServerContext } from '@tessera/sdk/server';
import { BotConfig, BotModes, BotPublished, BotSkills, shortcutProblems } from '../shared/index.ts';
import type { ChatService } from './chat.ts';
import type { ConversationStore } from './conversations.ts';
import { botError } from './errors.ts';
import type { Releases } from './releases.ts';
import { botView, nowIso, type BotRow, type BotStore } from './store.ts';

const VERSION = /^v\d+\.\d+\.\d+$/;

export interface BotDeps {
  bots: BotStore;
  conversations: ConversationStore;
  chats: ChatService;
  releases: Releases;
}

/** The draft's configuration checked against the modes and skills that run now (for saving and publishing). */
export function problemsOf(ctx: ServerContext<unknown>, config: BotConfig): string[] {
  const problems: string[] = [];
  const mode = ctx.registry(BotModes).get(config.mode);
  if (!mode) problems.push(`The mode "${config.mode}" is not available (its extension is disabled).`);
  else {
    const parsed = mode.settings.safeParse(config.settings);
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => i.message));
    else problems.push(...(mode.problems?.(parsed.data) ?? []));
  }
  for (const [key, value] of Object.entries(config.skills)) {
    const skill = ctx.registry(BotSkills).get(key);
    if (!skill) continue; // a skill whose extension is off is kept as it was and not used
    const parsed = skill.settings.safeParse(value);
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `${skill.label['en-US']}: ${i.message}`));
  }
  problems.push(...shortcutProblems(config.shortcuts));
  return problems;
}

const cmpVersion = (a: string, b: string) => {
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
};
export const nextVersion = (latest: string | null) => {
  if (!latest) return 'v1.0.0';
  const [a, b, c] = latest.slice(1).split('.').map(Number);
  return `v${a}.${b}.${c + 1}`;
};

/** The connectors a bot of this space may be published to (SpaceConnectors), each publication's settings checked. */
export async function checkConnectors(
  ctx: ServerContext<unknown>,
  spaceId: string,
  ids: string[],
  settings: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const usable = await ctx.service(SpaceConnectorsService).of(spaceId, 'bot');
  const unknown = ids.filter((id) => !usable.some((c) => c.id === id));
  if (unknown.length)
    throw badRequest(
      `Unknown connector ${unknown.join(', ')}: a bot of this space is published to ${usable.map((c) => `${c.id} (${c.name['en-US'] ?? c.id})`).join(', ')}.`,
    );
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    const schema = usable.find((c) => c.id === id)!.settings;
    if (!schema) continue;
    const parsed = schema.safeParse(settings[id] ?? {});
    if (!parsed.success)
      throw badRequest(
        `The settings for connector ${id}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`.trim()).join('; ')}`,
      );
    out[id] = parsed.data;
  }
  return out;
}

/**
 * Publishes a bot's draft as a version (the next patch unless given; it must grow) to connectors, once
 * the draft has no problems.
 */
export async function publishDraft(
  ctx: ServerContext<unknown>,
  bots: BotStore,
  b: BotRow,
  r: {
    version?: string;
    changelog: string;
    connectors: string[];
    connectorSettings?: Record<string, unknown>;
    userId: string;
  },
): Promise<{ version: string; commit_id: string }> {
  const connectorSettings = await checkConnectors(ctx, b.space_id, r.connectors, r.connectorSettings);
  const draft = await bots.draft(b.id);
  const problems = problemsOf(ctx, draft.config);
  if (problems.length)
    throw botError(400, 'bots.cannotPublish', { problems: problems.join(' ') }, { detail: { problems } });
  const version = r.version ?? nextVersion(b.latest_version);
  if (!VERSION.test(version)) throw botError(400, 'bots.badVersion');
  if (b.latest_version && cmpVersion(version, b.latest_version) <= 0)
    throw botError(400, 'bots.olderVersion', { latest: b.latest_version });
  const id = ctx.host.newId();
  const t = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('bots_commit')
      .values({
        id,
        bot_id: b.id,
        config: JSON.stringify(draft.config),
        revision: draft.revision,
        version,
        changelog: r.changelog,
        connectors: JSON.stringify(r.connectors),
        connector_settings: JSON.stringify(connectorSettings),
        created_by: r.userId,
        created_at: t,
      })
      .execute();
    await trx
      .updateTable('bots_meta')
      .set({ latest_version: version, latest_commit_id: id, published_at: t, published_revision: b.draft_revision })
      .where('id', '=', b.id)
      .execute();
  });
  bots.forgetSpace(b.id);
  ctx.emit(BotPublished, {
    bot_id: b.id,
    space_id: b.space_id,
    version,
    connectors: r.connectors,
    name: b.name,
    user_id: r.userId,
  });
  return { version, commit_id: id };
}

/** A bot with its draft configuration and what keeps it from being published (the editor's bot_info). */
export async function botDetail(ctx: ServerContext<unknown>, bots: BotStore, b: BotRow) {
  const draft = await bots.draft(b.id);
  return { bot_info: { ...botView(b), config: draft.config, problems: problemsOf(ctx, draft.config) } };
}

/** A configuration as sent (a save, a merge), checked: a clear 400 naming what is wrong. */
export function checkConfig(ctx: ServerContext<unknown>, value: unknown): BotConfig {
  const parsed = BotConfig.safeParse(value);
  if (!parsed.success)
    throw badRequest(
      `The bot's configuration is not valid: ${parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  if (!ctx.registry(BotModes).get(parsed.data.mode))
    throw botError(400, 'bots.modeMissing', { mode: parsed.data.mode });
  return parsed.data;
}
