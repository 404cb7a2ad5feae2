// Apps and their snapshots as the routes ask for them; a DSL checked before it is kept.
import type { ServerContext } from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import { BotsService } from '@tessera/ext-bots/shared';
import { WorkflowRunnerService } from '@tessera/workflow-sdk';
import type { Kysely } from 'kysely';
import type { UiView } from '../shared/api.ts';
import {
  BUILTIN_COMPONENTS,
  DSL_LIMITS,
  Dsl,
  UiComponents,
  WEB_APP_CONNECTOR,
  chatsOf,
  dslProblems,
  emptyDsl,
} from '../shared/dsl.ts';
import { texts } from './texts.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export interface AppRow {
  id: string;
  space_id: string;
  name: string;
  dsl: string;
  access: 'public' | 'signed_in' | 'members';
  version_code: number;
  published_dsl: string;
  published_version: number;
  published_by: string;
  published_at: string;
  creator_id: string;
  created_at: string;
  updated_at: string;
  description: string;
  icon_uri: string;
  /** 'ui' (an app of pages) or 'agent' (an app around a bot: its landing page, its chat ...). */
  app_kind: 'ui' | 'agent';
  bot_id: string;
}
export interface PublishRow {
  id: string;
  ui_id: string;
  version: number;
  dsl: string;
  access: string;
  description: string;
  created_by: string;
  created_at: string;
}
export interface PackageRow {
  id: string;
  space_id: string;
  name: string;
  description: string;
  source_ui_id: string;
  latest_version: number;
  creator_id: string;
  created_at: string;
  updated_at: string;
}
export interface PackageVersionRow {
  id: string;
  package_id: string;
  version: number;
  dsl: string;
  bot_id: string;
  note: string;
  created_by: string;
  created_at: string;
}
export interface SnapshotRow {
  id: string;
  ui_id: string;
  version_code: number;
  dsl: string;
  note: string;
  created_by: string;
  created_at: string;
}
export interface ComponentRow {
  id: string;
  space_id: string;
  type: string;
  version: number;
  label: string;
  props: string;
  html: string;
  note: string;
  created_by: string;
  created_at: string;
}
interface UiDb {
  ui_app: AppRow;
  ui_snapshot: SnapshotRow;
  ui_component: ComponentRow;
  ui_publish: PublishRow;
  ui_package: PackageRow;
  ui_package_version: PackageVersionRow;
}

/** How deep a JSON value nests (arrays and objects), counted with a stack of its own. */
export function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d > max) max = d;
    for (const c of Object.values(v)) if (c && typeof c === 'object') stack.push([c, d + 1]);
  }
  return max;
}

export const iso = () => new Date().toISOString();
export const secs = (v: string) => (v ? Math.floor(Date.parse(v) / 1000) : 0);

export class UiStore {
  static readonly inject = [ServerContextToken] as const;
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<UiDb> {
    return this.#ctx.db;
  }
  newId() {
    return this.#ctx.host.newId();
  }
  async app(id: string): Promise<AppRow> {
    const a = await this.db.selectFrom('ui_app').selectAll().where('id', '=', id).executeTakeFirst();
    if (!a) throw texts.error(404, 'noApp', { id });
    return a;
  }
  view(a: AppRow): UiView {
    return {
      ui_id: a.id,
      space_id: a.space_id,
      ui_name: a.name,
      dsl: Dsl.parse(JSON.parse(a.dsl)),
      access: a.access,
      version_code: Number(a.version_code),
      published_version: Number(a.published_version),
      published_at: secs(a.published_at),
      updated_at: secs(a.updated_at),
      description: a.description ?? '',
      app_kind: a.app_kind ?? 'ui',
      bot_id: a.bot_id ?? '',
    };
  }

  /** A new app of a space (an empty page, unless a DSL is given: it is checked first). */
  async create(o: {
    spaceId: string;
    name: string;
    userId: string;
    dsl?: unknown;
    description?: string;
    kind?: 'ui' | 'agent';
    botId?: string;
  }): Promise<AppRow> {
    const now = iso();
    const row: AppRow = {
      id: this.newId(),
      space_id: o.spaceId,
      name: o.name,
      dsl: JSON.stringify(o.dsl === undefined ? emptyDsl() : await this.check(o.dsl, o.spaceId)),
      access: 'members',
      version_code: 1,
      published_dsl: '',
      published_version: 0,
      published_by: '',
      published_at: '',
      creator_id: o.userId,
      created_at: now,
      updated_at: now,
      description: o.description ?? '',
      icon_uri: '',
      app_kind: o.kind ?? 'ui',
      bot_id: o.botId ?? '',
    };
    await this.db.insertInto('ui_app').values(row).execute();
    return row;
  }

  /** Publishes the draft (checked again) as the app's next version, recorded; an access given changes it too. */
  async publish(a: AppRow, userId: string, o: { access?: AppRow['access']; description?: string }): Promise<AppRow> {
    const dsl = await this.check(JSON.parse(a.dsl), a.space_id);
    await this.runnable(a.space_id, dsl);
    const version = Number(a.published_version) + 1;
    const at = iso();
    const access = o.access ?? a.access;
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('ui_app')
        .set({
          published_dsl: JSON.stringify(dsl),
          published_version: version,
          published_by: userId,
          published_at: at,
          access,
        })
        .where('id', '=', a.id)
        .execute();
      await tx
        .insertInto('ui_publish')
        .values({
          id: this.newId(),
          ui_id: a.id,
          version,
          dsl: JSON.stringify(dsl),
          access,
          description: o.description ?? '',
          created_by: userId,
          created_at: at,
        })
        .execute();
    });
    return this.app(a.id);
  }

  /**
   * What the published app will call works: every event's workflow is the space's and published (the app runs
   * published workflows only); every chat's bot is the space's and published to the Web app channel.
   */
  async runnable(spaceId: string, dsl: Dsl): Promise<void> {
    if (dsl.events.length) {
      const runner = this.#ctx.optionalService(WorkflowRunnerService);
      if (!runner) throw texts.error(400, 'workflowsOff');
      for (const e of dsl.events) {
        const info = await runner.info(e.action.workflow_id, spaceId);
        if (!info.latest_version) throw texts.error(400, 'notRunnable', { id: info.name, event: e.event_id });
      }
    }
    const chats = chatsOf(dsl);
    if (!chats.length) return;
    const bots = this.#ctx.optionalService(BotsService);
    if (!bots) throw texts.error(400, 'botsOff');
    for (const c of chats) {
      const botId = String(c.props.bot_id ?? '');
      const p = botId ? await bots.publication(botId) : undefined;
      if (!p || p.space_id !== spaceId || !p.connectors.includes(WEB_APP_CONNECTOR))
        throw texts.error(400, 'botNotPublished', { id: c.id, bot: botId || '—' });
    }
  }

  /** Deletes an app with its snapshots and publications (its page stops). */
  async remove(a: AppRow): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('ui_snapshot').where('ui_id', '=', a.id).execute();
      await tx.deleteFrom('ui_publish').where('ui_id', '=', a.id).execute();
      await tx.deleteFrom('ui_app').where('id', '=', a.id).execute();
    });
  }

  /** A DSL as it may be kept: parsed, within its bounds, of known components (the space's too) with safe addresses. */
  async check(raw: unknown, spaceId: string): Promise<Dsl> {
    // Measured without recursion first: a hostile nesting never reaches a recursive walk (stringify, the schema).
    if (depthOf(raw) > DSL_LIMITS.depth * 3 + 8)
      throw texts.error(400, 'badDsl', { detail: `components nested more than ${DSL_LIMITS.depth} deep.` });
    const text = JSON.stringify(raw ?? null);
    if (text.length > DSL_LIMITS.bytes)
      throw texts.error(400, 'tooBig', {
        kb: String(Math.round(text.length / 1024)),
        max: String(DSL_LIMITS.bytes / 1024),
      });
    const parsed = Dsl.safeParse(raw);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw texts.error(400, 'badDsl', { detail: `${i.path.join('.') || 'dsl'}: ${i.message}` });
    }
    const imported = await this.db
      .selectFrom('ui_component')
      .select('type')
      .distinct()
      .where('space_id', '=', spaceId)
      .execute();
    const known = new Set<string>([
      ...BUILTIN_COMPONENTS,
      ...this.#ctx
        .registry(UiComponents)
        .list()
        .map((c) => c.type),
      ...imported.map((r) => r.type),
    ]);
    const problems = dslProblems(parsed.data, known);
    if (problems.length) throw texts.error(400, 'badDsl', { detail: problems.slice(0, 5).join(' ') });
    return parsed.data;
  }
}

// Who may open a published app: anyone (public), people signed in, or the members of its space.
/** Why the caller may not open the app (a text key), or undefined when they may. */
export async function accessProblem(
  ctx: ServerContext,
  a: AppRow,
  caller: { userId: string } | undefined,
): Promise<'signIn' | 'membersOnly' | undefined> {
  if (a.access === 'public') return undefined;
  if (!caller) return 'signIn';
  if (a.access === 'members' && !(await ctx.service(SpacesService).roleOf(a.space_id, caller.userId)))
    return 'membersOnly';
  return undefined;
}
