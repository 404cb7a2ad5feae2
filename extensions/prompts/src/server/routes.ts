// The prompt library (Coze Loop's /api/prompt/v1/prompts...): prompts of a space by key, their draft (saved as
// it is edited), commits as versions (list, revert the draft to one), labels pointing at versions.
import { badRequest, conflict } from '@tessera/sdk';
import { containsText, type ServerContext } from '@tessera/sdk/server';
import {
  ClonePrompt,
  CommitDraft,
  CreatePrompt,
  DeleteLabel,
  DeletePrompt,
  GetPrompt,
  ListCommits,
  ListPrompts,
  RevertDraft,
  SaveDraft,
  SetLabel,
  UpdatePrompt,
  type PromptView,
} from '../shared/api.ts';
import { PromptDetail } from '../shared/index.ts';
import { templateProblem } from './render.ts';
import { detailOf, greater, nextVersion, now, secs, validVersion, type PromptRow, type PromptStore } from './store.ts';

export const promptView = (p: PromptRow): PromptView => ({
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
  const db = () => store.db;
  const inSpace = { space: { from: 'body' as const, field: 'workspace_id' } };
  const ofPrompt = {
    space: async (r: { params: Record<string, unknown> }) =>
      (await store.get(String(r.params?.prompt_id ?? ''))).space_id,
  };

  ctx.route({
    ...CreatePrompt,
    auth: inSpace,
    handler: async ({ body, caller }) => {
      if (await store.byKey(body.workspace_id, body.prompt_key))
        throw conflict(`This space already has a prompt with the key ${body.prompt_key}.`);
      const id = ctx.host.newId();
      const t = now();
      const draft =
        body.draft_detail ?? PromptDetail.parse({ prompt_template: { messages: [{ role: 'system', content: '' }] } });
      const problem = await templateProblem(draft, { refusedOnly: true });
      if (problem) throw badRequest(problem, { field: 'draft_detail' });
      await db()
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
    ...ListPrompts,
    auth: inSpace,
    handler: async ({ body }) => {
      let q = db()
        .selectFrom('prompts_prompt')
        .where('space_id', '=', body.workspace_id)
        .where('deleted_at', 'is', null);
      const kw = body.key_word?.trim().toLowerCase();
      if (kw) {
        q = q.where((eb) => eb.or([containsText('prompt_key', kw), containsText('name', kw)]));
      }
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(body.page_size)
        .offset((body.page_num - 1) * body.page_size)
        .execute();
      return { prompts: rows.map(promptView), total };
    },
  });

  ctx.route({
    ...GetPrompt,
    auth: ofPrompt,
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
                    committed_at: secs(commit.created_at),
                  },
                  detail: detailOf(commit.detail),
                },
              }
            : {}),
          labels: await store.labels(p.id),
        },
      };
    },
  });

  ctx.route({
    ...UpdatePrompt,
    auth: ofPrompt,
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      await db()
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
    ...DeletePrompt,
    auth: ofPrompt,
    handler: async ({ params }) => {
      const p = await store.get(params.prompt_id);
      await db()
        .updateTable('prompts_prompt')
        .set({ deleted_at: now(), prompt_key: `${p.prompt_key.slice(0, 60)}#deleted#${p.id}`.slice(0, 100) })
        .where('id', '=', p.id)
        .execute();
      return {};
    },
  });

  ctx.route({
    ...ClonePrompt,
    auth: ofPrompt,
    handler: async ({ params, body, caller }) => {
      const p = await store.get(params.prompt_id);
      if (await store.byKey(p.space_id, body.cloned_prompt_key))
        throw conflict(`This space already has a prompt with the key ${body.cloned_prompt_key}.`);
      const commit = body.commit_version ? await store.commit(p.id, body.commit_version) : undefined;
      if (body.commit_version && !commit)
        throw badRequest(`The prompt has no version ${body.commit_version}.`, { field: 'commit_version' });
      const id = ctx.host.newId();
      const t = now();
      await db()
        .insertInto('prompts_prompt')
        .values({
          id,
          space_id: p.space_id,
          prompt_key: body.cloned_prompt_key,
          name: body.cloned_prompt_name,
          description: p.description,
          creator_id: caller!.userId,
          draft: commit?.detail ?? p.draft,
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
    ...SaveDraft,
    auth: ofPrompt,
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      const problem = await templateProblem(body.prompt_draft.detail, { refusedOnly: true });
      if (problem) throw badRequest(problem, { field: 'prompt_draft' });
      await db()
        .updateTable('prompts_prompt')
        .set({ draft: JSON.stringify(body.prompt_draft.detail), draft_modified: 1, updated_at: now() })
        .where('id', '=', p.id)
        .execute();
      return { draft_info: { base_version: p.draft_base_version, is_modified: true } };
    },
  });

  ctx.route({
    ...CommitDraft,
    auth: ofPrompt,
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
      await db()
        .transaction()
        .execute(async (trx) => {
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
    ...RevertDraft,
    auth: ofPrompt,
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      const c = await store.commit(p.id, body.commit_version_reverting_from);
      if (!c)
        throw badRequest(`The prompt has no version ${body.commit_version_reverting_from}.`, {
          field: 'commit_version_reverting_from',
        });
      await db()
        .updateTable('prompts_prompt')
        .set({
          draft: c.detail,
          draft_base_version: c.version,
          draft_modified: 0,
          updated_at: now(),
        })
        .where('id', '=', p.id)
        .execute();
      return {};
    },
  });

  ctx.route({
    ...ListCommits,
    auth: ofPrompt,
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      const rows = await db()
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
          committed_at: secs(c.created_at),
          labels: labels.filter((l) => l.version === c.version).map((l) => l.label),
          detail: detailOf(c.detail),
        })),
      };
    },
  });

  ctx.route({
    ...SetLabel,
    auth: ofPrompt,
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
      await db()
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
    ...DeleteLabel,
    auth: ofPrompt,
    handler: async ({ params, body }) => {
      const p = await store.get(params.prompt_id);
      await db().deleteFrom('prompts_label').where('prompt_id', '=', p.id).where('label', '=', body.label).execute();
      return { labels: await store.labels(p.id) };
    },
  });
}
