// Collaborators on the open API (spec 002 §7.15): POST /v1/{apps|workflows|bots}/{id}/collaborators with the
// collaborators to add, DELETE .../collaborators/{user_id} to take one off. A token with collaborator.manage in the
// resource's workspace, held by its creator or a workspace administrator (a collaborator may take themselves off).
import { ResourceKinds, type ServerContext } from '@tessera/sdk/server';
import { TokenPermissions } from '@tessera/ext-identity/shared';
import { z } from 'zod';
import { OpenCollaboratorList } from '../shared/api.ts';
import type { Collaborators } from './service.ts';
import { texts } from './texts.ts';

/** The open API's names of the kinds (an app is a project). */
const KINDS = { apps: 'project', workflows: 'workflow', bots: 'bot' } as const;
const Person = z
  .object({ id: z.string().min(1).max(32).optional(), user_id: z.string().min(1).max(32).optional() })
  .refine((p) => p.id ?? p.user_id, 'Name each collaborator by id (or user_id).');

export function registerOpenRoutes(ctx: ServerContext, c: Collaborators): void {
  ctx.register(TokenPermissions, {
    key: 'collaborator.manage',
    label: { 'en-US': 'Add and remove collaborators', 'zh-CN': '添加和移除协作者' },
    group: 'space',
  });
  for (const [segment, kind] of Object.entries(KINDS)) {
    /** The resource's space; one that does not exist is a 404 that names it. */
    const spaceOf = async (id: unknown) => {
      const space = await ctx
        .registry(ResourceKinds)
        .list()
        .find((k) => k.kind === kind)
        ?.spaceOf?.(String(id ?? ''));
      if (!space) throw texts.error(404, 'noResource', { kind, id: String(id ?? '') });
      return space;
    };
    const auth = { space: (r: { params: { id?: unknown } }) => spaceOf(r.params?.id) };
    const params = z.object({ id: z.string().min(1).max(32) });
    ctx.route({
      method: 'POST',
      path: `/v1/${segment}/:id/collaborators`,
      auth,
      permission: 'collaborator.manage',
      audit: { action: 'collaborator.add', target: 'id' },
      summary: `Add collaborators to a ${kind === 'project' ? 'app' : kind} (members of its workspace; they may edit it)`,
      params,
      body: z.object({ collaborators: z.array(Person).min(1, 'Name at least one collaborator.').max(50) }),
      response: OpenCollaboratorList,
      handler: async (req) => {
        const ids = req.body.collaborators.map((p) => (p.id ?? p.user_id)!);
        const v = await c.add(kind, req.params.id, req.spaceId!, ids, 1, req.caller!.userId, req.spaceRole);
        return { collaborators: v.collaborators.map((x) => ({ id: x.user_id, name: x.name })) };
      },
    });
    ctx.route({
      method: 'DELETE',
      path: `/v1/${segment}/:id/collaborators/:user_id`,
      auth,
      permission: 'collaborator.manage',
      audit: { action: 'collaborator.remove', target: 'id' },
      summary: `Take a collaborator off a ${kind === 'project' ? 'app' : kind}`,
      params: params.extend({ user_id: z.string().min(1).max(32) }),
      response: OpenCollaboratorList,
      handler: async (req) => {
        const v = await c.remove(
          kind,
          req.params.id,
          req.spaceId!,
          req.params.user_id,
          req.caller!.userId,
          req.spaceRole,
        );
        return { collaborators: v.collaborators.map((x) => ({ id: x.user_id, name: x.name })) };
      },
    });
  }
}
