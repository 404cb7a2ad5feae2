// Apps and their snapshots as the routes ask for them; a DSL checked before it is kept.
import type { ServerContext } from '@tessera/sdk/server';
import { SpacesService } from '@tessera/ext-spaces/shared';
import type { Kysely } from 'kysely';
import type { UiView } from '../shared/api.ts';
import { BUILTIN_COMPONENTS, DSL_LIMITS, Dsl, UiComponents, dslProblems } from '../shared/dsl.ts';
import { texts } from './texts.ts';

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
  readonly #ctx: ServerContext;
  constructor(ctx: ServerContext) {
    this.#ctx = ctx;
  }
  get db(): Kysely<UiDb> {
    return this.#ctx.db as Kysely<UiDb>;
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
    };
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
