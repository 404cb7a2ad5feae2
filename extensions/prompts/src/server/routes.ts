// The prompt library (Coze Loop's /api/prompt/v1/prompts...): prompts of a space by key, their draft (saved as
// it is edited), commits as versions (list, revert the draft to one), labels pointing at versions.
import { badRequest, conflict } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import { z } from 'zod';
import { PromptDetail } from '../shared/index.ts';
import { templateProblem } from './render.ts';
import { detailOf, greater, nextVersion, now, validVersion, type PromptRow, type PromptStore } from './store.ts';

const Id = z.string().min(1).max(32);
const Key = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/,
    'A prompt key starts with a letter and has letters, digits, _ . and -, at most 100 (apps fetch the prompt by it).',
  );
const Label = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'A label has lower-case letters, digits, _ and - (like production), at most 64.');
const secs = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export const promptView = (p: PromptRow) => ({
  id: p.id,
  workspace_id: p.space_id,
  prompt_key: p.prompt_key,
  prompt_basic: {
    display_name: p.name,
    description: p.description,
    latest_version: p.latest_version,
    created_by: p.creator_id,
    created_at: secs(p.created_at),
    updated_at: secs(p.updated_at),
  },
});

export function registerPromptRoutes(ctx: ServerContext<unknown>, store: PromptStore) {
  const base = '/api/prompt/v1/prompts';
  const inSpace = { space: { from: 'body' as const, field: 'workspace_id' } };
  const ofPrompt = {
    space: async (r: { params: Record<string, unknown> }) =>
      (await store.get(String(r.params?.prompt_id ?? ''))).space_id,
  };
  const Params = z.object({ prompt_id: Id });

  ctx.route({
    method: 'POST',
    path: base,
    auth: inSpace,
    summary: 'Create a prompt (key unique in the space) with a first draft',
    body: z.object({
      workspace_id: Id,
      prompt_key: Key,
      prompt_name: z.string().trim().min(1, 'Give the prompt a name.').max(100),
      prompt_description: z.string().max(2000).default(''),
      draft_detail: PromptDetail.optional(),
    }),
    handler: async ({ body, caller }) => {
      if (await store.byKey(body.workspace_id, body.prompt_key))
        throw conflict(`This space already has a prompt with the key ${body.prompt_key}.`);
      const id = ctx.host.newId();
      const t = now();
      const draft =
        body.draft_detail ?? PromptDetail.parse({ prompt_template: { messages: [{ role: 'system', content: '' }] } });
      const problem = await templateProblem(draft, { refusedOnly: true });
      if (problem) throw badRequest(problem, { field: 'draft_detail' });
      await ctx.db
        .insertInto('prompts_prompt')
        .values({
          id,
          space_id: body.workspace_id,
          prompt_key: body.prompt_key,
          name: body.prompt_name,
          description: body.prompt_description,
          creator_id: caller!.userId,
          draft: JSON.stringify(draft),
          draft_base_version: '',
          draft_modified: 1,
          latest_version: '',
          created_at: t,
          updated_at: t,
          deleted_at: null,
        })
        .execute();
      return { prompt_id: id };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/list`,
    auth: inSpace,
    summary: "The space's prompts, newest changed first: by key or name words, pages",
    body: z.object({
      workspace_id: Id,
      key_word: z.string().max(100).optional(),
      page_num: z.number().int().min(1).max(10_000).default(1),
      page_size: z.number().int().min(1).max(100).default(20),
    }),
    handler: async ({ body }) => {
      let q = ctx.db
        .selectFrom('prompts_prompt')
        .where('space_id', '=', body.workspace_id)
        .where('deleted_at', 'is', null);
      const kw = body.key_word?.trim().toLowerCase();
      if (kw) {
        q = q.where((eb) => eb.or([containsText('prompt_key', kw), containsText('name', kw)]));
      }
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = (await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.page_size)
        .offset((body.page_num - 1) * body.page_size)
        .execute()) as PromptRow[];
      return { prompts: rows.map(promptView), total };
    },
  });

  ctx.route({
    method: 'GET',
    path: `${base}/:prompt_id`,
    auth: ofPrompt,
    summary:
      "A prompt with its draft, its versions' numbers and its labels (with_commit_version: that version's content too)",
    params: Params,
    query: z.object({ with_commit_version: z.string().max(32).optional() }),
    handler: async ({ params, query }) => {
      const p = await store.get(params.prompt_id);
      const commit = query.with_commit_version ? await store.commit(p.id, query.with_commit_version) : undefined;
      if (query.with_commit_version && !commit)
        throw badRequest(`The prompt has no version ${query.with_commit_version}.`, { field: 'with_commit_version' });
      return {
        prompt: {
          ...promptView(p),
          prompt_draft: {
            draft_info: {
              base_version: p.draft_base_version,
              is_modified: !!Number(p.draft_modified),
              updated_at: secs(p.updated_at),
            },
            detail: detailOf(p.draft),
          },
          ...(commit
            ? {
                prompt_commit: {
                  commit_info: {
                    version: commit.version,
                    description: commit.description,
                    committed_by: commit.creator_id,
                    committed_at: secs(commit.created_at as string),
                  },
                  detail: detailOf(commit.detail as string),
                },
              }
            : {}),
          labels: await store.labels(p.id),
        },
      };
    },
  });

  ctx.route({
    method: 'PUT',
    path: `${base}/:prompt_id`,
    auth: ofPrompt,
    summary: "Change a prompt's name or description (its key stays: apps fetch it by the key)",
    params: Params,
    body: z.object({
      prompt_name: z.string().trim().min(1).max(100).optional(),
      prompt_description: z.string().max(2000).optional(),
    }),
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      await ctx.db
        .updateTable('prompts_prompt')
        .set({
          ...(body.prompt_name ? { name: body.prompt_name } : {}),
          ...(body.prompt_description !== undefined ? { description: body.prompt_description } : {}),
          updated_at: now(),
        })
        .where('id', '=', p.id)
        .execute();
      return {};
    },
  });

  ctx.route({
    method: 'DELETE',
    path: `${base}/:prompt_id`,
    auth: ofPrompt,
    summary: 'Delete a prompt (apps fetching its key get a not-found from then on)',
    params: Params,
    handler: async ({ params }) => {
      const p = await store.get(params.prompt_id);
      await ctx.db
        .updateTable('prompts_prompt')
        .set({ deleted_at: now(), prompt_key: `${p.prompt_key.slice(0, 60)}#deleted#${p.id}`.slice(0, 100) })
        .where('id', '=', p.id)
        .execute();
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/:prompt_id/clone`,
    auth: ofPrompt,
    summary: 'Copy a prompt under a new key (its draft, or one of its versions)',
    params: Params,
    body: z.object({
      cloned_prompt_key: Key,
      cloned_prompt_name: z.string().trim().min(1).max(100),
      commit_version: z.string().max(32).optional(),
    }),
    handler: async ({ params, body, caller }) => {
      const p = await store.get(params.prompt_id);
      if (await store.byKey(p.space_id, body.cloned_prompt_key))
        throw conflict(`This space already has a prompt with the key ${body.cloned_prompt_key}.`);
      const commit = body.commit_version ? await store.commit(p.id, body.commit_version) : undefined;
      if (body.commit_version && !commit)
        throw badRequest(`The prompt has no version ${body.commit_version}.`, { field: 'commit_version' });
      const id = ctx.host.newId();
      const t = now();
      await ctx.db
        .insertInto('prompts_prompt')
        .values({
          id,
          space_id: p.space_id,
          prompt_key: body.cloned_prompt_key,
          name: body.cloned_prompt_name,
          description: p.description,
          creator_id: caller!.userId,
          draft: (commit?.detail as string) ?? p.draft,
          draft_base_version: '',
          draft_modified: 1,
          latest_version: '',
          created_at: t,
          updated_at: t,
          deleted_at: null,
        })
        .execute();
      return { cloned_prompt_id: id };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/:prompt_id/drafts/save`,
    auth: ofPrompt,
    summary: 'Save the draft as it is edited (messages, variables, model settings, tools)',
    params: Params,
    body: z.object({ prompt_draft: z.object({ detail: PromptDetail }) }),
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      const problem = await templateProblem(body.prompt_draft.detail, { refusedOnly: true });
      if (problem) throw badRequest(problem, { field: 'prompt_draft' });
      await ctx.db
        .updateTable('prompts_prompt')
        .set({ draft: JSON.stringify(body.prompt_draft.detail), draft_modified: 1, updated_at: now() })
        .where('id', '=', p.id)
        .execute();
      return { draft_info: { base_version: p.draft_base_version, is_modified: true } };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/:prompt_id/drafts/commit`,
    auth: ofPrompt,
    summary: 'Commit the draft as a version (a number greater than the last one, like 1.0.1) with a description',
    params: Params,
    body: z.object({
      commit_version: z.string().trim().max(32).optional(),
      commit_description: z.string().max(2000).default(''),
    }),
    handler: async ({ params, body, caller }) => {
      const p = await store.get(params.prompt_id);
      const version = body.commit_version || nextVersion(p.latest_version);
      if (!validVersion(version)) throw badRequest('Give a version number like 1.0.0.', { field: 'commit_version' });
      if (p.latest_version && !greater(version, p.latest_version))
        throw badRequest(`The version must be greater than ${p.latest_version}, the last one.`, {
          field: 'commit_version',
        });
      const detail = detailOf(p.draft);
      if (!detail.prompt_template.messages.some((m) => m.content.trim()))
        throw badRequest('The prompt has no message with text yet; write it before committing.');
      const problem = await templateProblem(detail);
      if (problem) throw badRequest(`${problem} Correct it before committing.`);
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('prompts_commit')
          .values({
            id: ctx.host.newId(),
            prompt_id: p.id,
            version,
            description: body.commit_description,
            detail: JSON.stringify(detail),
            creator_id: caller!.userId,
            created_at: now(),
          })
          .execute();
        await trx
          .updateTable('prompts_prompt')
          .set({ latest_version: version, draft_base_version: version, draft_modified: 0, updated_at: now() })
          .where('id', '=', p.id)
          .execute();
      });
      return { version };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/:prompt_id/drafts/revert_from_commit`,
    auth: ofPrompt,
    summary: 'Make the draft what a version was',
    params: Params,
    body: z.object({ commit_version_reverting_from: z.string().max(32) }),
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      const c = await store.commit(p.id, body.commit_version_reverting_from);
      if (!c)
        throw badRequest(`The prompt has no version ${body.commit_version_reverting_from}.`, {
          field: 'commit_version_reverting_from',
        });
      await ctx.db
        .updateTable('prompts_prompt')
        .set({
          draft: c.detail as string,
          draft_base_version: c.version as string,
          draft_modified: 0,
          updated_at: now(),
        })
        .where('id', '=', p.id)
        .execute();
      return {};
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/:prompt_id/commits/list`,
    auth: ofPrompt,
    summary: "The prompt's versions, newest first, with their content and the labels on each",
    params: Params,
    body: z.object({ page_size: z.number().int().min(1).max(200).default(50) }).default({ page_size: 50 }),
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      const rows = await ctx.db
        .selectFrom('prompts_commit')
        .selectAll()
        .where('prompt_id', '=', p.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.page_size)
        .execute();
      const labels = await store.labels(p.id);
      return {
        prompt_commit_infos: rows.map((c) => ({
          version: c.version,
          description: c.description,
          committed_by: c.creator_id,
          committed_at: secs(c.created_at as string),
          labels: labels.filter((l) => l.version === c.version).map((l) => l.label),
          detail: detailOf(c.detail as string),
        })),
      };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/:prompt_id/labels/set`,
    auth: ofPrompt,
    summary: 'Point a label (production, staging ...) at a version: apps fetching by the label get it at once',
    params: Params,
    body: z.object({ label: Label, version: z.string().max(32) }),
    handler: async ({ params, body, caller }) => {
      const p = await store.get(params.prompt_id);
      if (!(await store.commit(p.id, body.version)))
        throw badRequest(`The prompt has no version ${body.version}.`, { field: 'version' });
      const row = {
        prompt_id: p.id,
        label: body.label,
        version: body.version,
        updated_by: caller!.userId,
        updated_at: now(),
      };
      await ctx.db
        .insertInto('prompts_label')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['prompt_id', 'label'])
            .doUpdateSet({ version: row.version, updated_by: row.updated_by, updated_at: row.updated_at }),
        )
        .execute();
      return { labels: await store.labels(p.id) };
    },
  });

  ctx.route({
    method: 'POST',
    path: `${base}/:prompt_id/labels/delete`,
    auth: ofPrompt,
    summary: 'Remove a label (apps fetching by it get a not-found)',
    params: Params,
    body: z.object({ label: Label }),
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      await ctx.db.deleteFrom('prompts_label').where('prompt_id', '=', p.id).where('label', '=', body.label).execute();
      return { labels: await store.labels(p.id) };
    },
  });
}
