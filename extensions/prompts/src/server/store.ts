// Prompt rows: the prompt with its draft, its committed versions and its labels.
import { badRequest, notFound } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';
import type { Kysely } from 'kysely';
import { PromptDetail, PromptVersionSources, type PromptRef } from '../shared/index.ts';
import { ServerContextToken } from '@tessera/sdk/server';

export interface PromptRow {
  id: string;
  space_id: string;
  prompt_key: string;
  name: string;
  description: string;
  creator_id: string;
  draft: string;
  draft_base_version: string;
  draft_modified: number;
  latest_version: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface CommitRow {
  id: string;
  prompt_id: string;
  version: string;
  description: string;
  /** JSON of PromptDetail */
  detail: string;
  creator_id: string;
  created_at: string;
}

/** The extension's tables (migrations.ts). */
export interface PromptsDb {
  prompts_prompt: PromptRow;
  prompts_commit: CommitRow;
  prompts_label: { prompt_id: string; label: string; version: string; updated_by: string; updated_at: string };
  prompts_debug: {
    id: string;
    prompt_id: string;
    user_id: string;
    version: string;
    model_id: string;
    /** JSON of the variables' values */
    variables: string;
    /** JSON of the rendered messages */
    messages: string;
    output: string;
    status: string;
    error: string;
    input_tokens: number;
    output_tokens: number;
    latency_ms: number;
    created_at: string;
  };
}

export const now = () => new Date().toISOString();
export const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const VERSION = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})$/;
export const validVersion = (v: string) => VERSION.test(v);
/** a > b for versions like 1.2.3. */
export const greater = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => VERSION.exec(v)!.slice(1).map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};
export const nextVersion = (v: string) => (v ? v.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : '0.0.1');
export const detailOf = (text: string): PromptDetail => PromptDetail.parse(JSON.parse(text || '{}'));

export class PromptStore {
  static readonly inject = [ServerContextToken] as const;
  private ctx: ServerContext<unknown>;
  constructor(ctx: ServerContext<unknown>) {
    this.ctx = ctx;
  }
  get db(): Kysely<PromptsDb> {
    return this.ctx.db;
  }
  async get(id: string, spaceId?: string): Promise<PromptRow> {
    const p = await this.db
      .selectFrom('prompts_prompt')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!p || (spaceId && p.space_id !== spaceId))
      throw notFound(`There is no prompt ${id}${spaceId ? ' in this space' : ''}.`);
    return p;
  }
  async byKey(spaceId: string, key: string): Promise<PromptRow | undefined> {
    return this.db
      .selectFrom('prompts_prompt')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('prompt_key', '=', key)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }
  async commit(promptId: string, version: string) {
    return this.db
      .selectFrom('prompts_commit')
      .selectAll()
      .where('prompt_id', '=', promptId)
      .where('version', '=', version)
      .executeTakeFirst();
  }
  async labels(promptId: string) {
    return (
      await this.db
        .selectFrom('prompts_label')
        .select(['label', 'version', 'updated_at'])
        .where('prompt_id', '=', promptId)
        .orderBy('label')
        .execute()
    ).map((l) => ({ label: l.label, version: l.version, update_time: secs(l.updated_at) }));
  }
  /** The version a reference names: the version given, a label's, an environment's for the caller, or the latest. */
  async versionOf(p: PromptRow, ref: PromptRef): Promise<string | undefined> {
    if (ref.version) return ref.version;
    if (ref.label)
      return (
        await this.db
          .selectFrom('prompts_label')
          .select('version')
          .where('prompt_id', '=', p.id)
          .where('label', '=', ref.label)
          .executeTakeFirst()
      )?.version;
    if (ref.env) {
      const source = this.ctx.registry(PromptVersionSources).list()[0];
      if (!source)
        throw badRequest(
          `Prompts are not released to environments here (the prompt releases extension is off): ask for a version or a label instead of ${ref.env}.`,
          { field: 'env' },
        );
      return source.resolve({ spaceId: p.space_id, promptId: p.id, env: ref.env, caller: ref.caller });
    }
    return p.latest_version || undefined;
  }
}
