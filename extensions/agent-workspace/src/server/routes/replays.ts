// Replays (/api/agent_space/replay/...): an ended task shared by a link with a secret. The secret is shown once and
// only its hash kept; anyone with the link watches the task's goal, plan, log and files without signing in, and
// nothing else: not who made it, its space, its tools' settings, nor any other task.
import type { ServerContext } from '@tessera/sdk/server';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CreateReplay, ENDED, GetReplay, ListReplays, OperateReplay } from '../../shared/api.ts';
import { iso, planOf, type ShareRow, type WorkspaceStore } from '../store.ts';
import { texts } from '../texts.ts';

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const secs = (v: string) => Math.floor(Date.parse(v) / 1000);
const shareView = (s: ShareRow) => ({
  task_share_id: s.id,
  status: s.status,
  views: Number(s.views),
  created_at: secs(s.created_at),
});

export function registerReplayRoutes(ctx: ServerContext, store: WorkspaceStore): void {
  const ofTask = {
    space: async (r: { body: { task_id?: unknown } }) => (await store.task(String(r.body?.task_id ?? ''))).space_id,
  };
  const share = async (id: string) => {
    const s = await store.db.selectFrom('agent_task_share').selectAll().where('id', '=', id).executeTakeFirst();
    if (!s) throw texts.error(404, 'noShare', { id });
    return s;
  };
  /** The share a link names, when its secret is right and it was not revoked (one answer for every failure). */
  const opened = async (id: string, secret: string) => {
    const s = await store.db.selectFrom('agent_task_share').selectAll().where('id', '=', id).executeTakeFirst();
    const given = Buffer.from(hash(secret), 'hex');
    const right = s && s.status === 'active' && timingSafeEqual(given, Buffer.from(s.secret_hash, 'hex'));
    if (!s || !right) throw texts.error(403, 'badSecret');
    return s;
  };

  ctx.route({
    ...CreateReplay,
    auth: ofTask,
    handler: async ({ body, caller }) => {
      const t = await store.own(body.task_id, caller!.userId);
      if (!ENDED.includes(t.status)) throw texts.error(409, 'notEnded');
      const secret = randomBytes(24).toString('base64url');
      const row: ShareRow = {
        id: store.newId(),
        task_id: t.id,
        secret_hash: hash(secret),
        status: 'active',
        views: 0,
        created_by: caller!.userId,
        created_at: iso(),
      };
      await store.db.insertInto('agent_task_share').values(row).execute();
      return { share: shareView(row), secret, path: `/replay/${row.id}#${secret}` };
    },
  });
  ctx.route({
    ...ListReplays,
    auth: ofTask,
    handler: async ({ body, caller }) => {
      const t = await store.own(body.task_id, caller!.userId);
      const rows = await store.db
        .selectFrom('agent_task_share')
        .selectAll()
        .where('task_id', '=', t.id)
        .orderBy('created_at', 'desc')
        .execute();
      return { shares: rows.map(shareView) };
    },
  });
  ctx.route({
    ...OperateReplay,
    auth: {
      space: async (r: { body: { task_share_id?: unknown } }) =>
        (await store.task((await share(String(r.body?.task_share_id ?? ''))).task_id)).space_id,
    },
    handler: async ({ body, caller }) => {
      const s = await share(body.task_share_id);
      await store.own(s.task_id, caller!.userId);
      await store.db.updateTable('agent_task_share').set({ status: 'revoked' }).where('id', '=', s.id).execute();
      return { share: shareView({ ...s, status: 'revoked' }) };
    },
  });
  ctx.route({
    ...GetReplay,
    auth: 'anonymous',
    rateLimit: { max: 120, key: 'ip' },
    handler: async ({ body, headers }) => {
      const s = await opened(body.task_share_id, body.secret);
      const t = await store.task(s.task_id);
      await store.db
        .updateTable('agent_task_share')
        .set((eb) => ({ views: eb('views', '+', 1) }))
        .where('id', '=', s.id)
        .execute();
      const view = store.view(t, headers['accept-language']);
      return {
        replay: {
          task_name: t.task_name,
          query: t.query,
          status: t.status,
          end_reason: view.end_reason,
          plan: planOf(t).map(({ expert_id: _e, ...step }) => step),
          messages: (await store.messages(t.id)).map((m) => store.messageView(m, headers['accept-language'])),
          files: (await store.files(t.id)).map((f) => store.fileView(f)),
          created_at: view.created_at,
          finished_at: view.finished_at,
        },
      };
    },
  });
  ctx.route({
    method: 'POST',
    path: '/api/agent_space/replay/file',
    produces: 'application/octet-stream',
    auth: 'anonymous',
    rateLimit: { max: 120, key: 'ip' },
    summary: "A file of a shared task (the replay link's secret is needed)",
    body: z.object({
      task_share_id: z.string().min(1).max(32),
      secret: z.string().min(1).max(100),
      file_id: z.string().min(1).max(32),
    }),
    handler: async ({ body }, reply) => {
      const s = await opened(body.task_share_id, body.secret);
      const f = await store.file(s.task_id, body.file_id);
      if (!f) throw texts.error(404, 'noFile', { id: body.file_id });
      reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(f.name)}`);
      reply.header('x-content-type-options', 'nosniff');
      reply.send(f.content, f.mime.includes('html') || f.mime.includes('svg') ? 'text/plain' : f.mime);
    },
  });
}
