// Collaborators (server half): the /api/permission/authz/ routes, and the policy on the routes that change a workflow
// a bot or a project (their `resource` declaration) through ServerRequestInterceptors.
import { defineExtension, ServerRequestInterceptors, type ApiRequest } from '@tessera/sdk/server';
import {
  AddCollaborator,
  BatchAddCollaborator,
  ListCollaborators,
  ModifyCollaborator,
  RemoveCollaborator,
} from '../shared/api.ts';
import { migrations } from './migrations.ts';
import { texts } from './texts.ts';
import { Collaborators } from './service.ts';
import { registerOpenRoutes } from './open.ts';

export default defineExtension({
  id: 'collaborators',
  register(ctx) {
    ctx.migrations(migrations);
    texts.register(ctx);
    const c = ctx.resolve(Collaborators);
    // A policy that must fail closed: when it cannot check, the change is refused (and the failure reported).
    ctx.tap(ServerRequestInterceptors, 'collaborators', async (req) => {
      if (!req.resource?.write) return undefined;
      try {
        return await c.refusal(req);
      } catch (e) {
        ctx.report(e);
        return texts.error(403, 'unchecked');
      }
    });
    const auth = { space: { from: 'body' as const, field: 'space_id' } };
    const who = (req: ApiRequest) => [req.caller!.userId, req.spaceRole] as const;
    ctx.route({
      ...ListCollaborators,
      auth,
      handler: (req) => c.view(req.body.resource_type, req.body.resource_id, req.body.space_id, ...who(req)),
    });
    ctx.route({
      ...AddCollaborator,
      auth,
      audit: { action: 'collaborator.add', target: 'resource_id' },
      handler: (req) =>
        c.add(
          req.body.resource_type,
          req.body.resource_id,
          req.body.space_id,
          [req.body.user_id],
          req.body.collaborator_type,
          ...who(req),
        ),
    });
    ctx.route({
      ...BatchAddCollaborator,
      auth,
      audit: { action: 'collaborator.add', target: 'resource_id' },
      handler: (req) =>
        c.add(
          req.body.resource_type,
          req.body.resource_id,
          req.body.space_id,
          req.body.user_ids,
          req.body.collaborator_type,
          ...who(req),
        ),
    });
    ctx.route({
      ...ModifyCollaborator,
      auth,
      audit: { action: 'collaborator.modify', target: 'resource_id' },
      handler: (req) =>
        c.add(
          req.body.resource_type,
          req.body.resource_id,
          req.body.space_id,
          [req.body.user_id],
          req.body.collaborator_type,
          ...who(req),
        ),
    });
    registerOpenRoutes(ctx, c);
    ctx.route({
      ...RemoveCollaborator,
      auth,
      audit: { action: 'collaborator.remove', target: 'resource_id' },
      handler: (req) =>
        c.remove(req.body.resource_type, req.body.resource_id, req.body.space_id, req.body.user_id, ...who(req)),
    });
  },
});
