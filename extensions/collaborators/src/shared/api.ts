// Collaborators of a resource (spec 001: /api/permission/authz/...), one contract for the server and the panel.
import { defineEndpoint } from '@tessera/sdk';
import { z } from 'zod';

const Id = z.string().min(1).max(32);
/** The kinds whose changing routes declare their resource (workflow, bot). */
const Kind = z.enum(['workflow', 'bot', 'project']);
const Target = { space_id: Id, resource_type: Kind, resource_id: Id };
/** collaborator_type: 1 editor (may change the resource). */
const CollaboratorType = z.literal(1).default(1);

const CollaboratorView = z.object({
  user_id: z.string(),
  name: z.string(),
  collaborator_type: z.number(),
  added_by: z.string(),
  added_at: z.number(),
});
export type CollaboratorView = z.output<typeof CollaboratorView>;
const Listed = z.object({
  /** Who made the resource (always may edit it). */
  owner_id: z.string(),
  /** Only the owner, the space's administrators and the collaborators edit it (while it has collaborators). */
  restricted: z.boolean(),
  collaborators: z.array(CollaboratorView),
  /** May the caller add and remove collaborators (the owner or a space administrator). */
  can_manage: z.boolean(),
});

export const ListCollaborators = defineEndpoint({
  method: 'POST',
  path: '/api/permission/authz/list_collaborator',
  summary: "A resource's collaborators",
  body: z.object(Target),
  response: Listed,
});
export const AddCollaborator = defineEndpoint({
  method: 'POST',
  path: '/api/permission/authz/add_collaborator',
  summary: 'Name a member of the space as a collaborator (the owner or a space administrator)',
  body: z.object({ ...Target, user_id: Id, collaborator_type: CollaboratorType }),
  response: Listed,
});
export const BatchAddCollaborator = defineEndpoint({
  method: 'POST',
  path: '/api/permission/authz/batch_add_collaborator',
  summary: 'Name several members as collaborators',
  body: z.object({ ...Target, user_ids: z.array(Id).min(1).max(50), collaborator_type: CollaboratorType }),
  response: Listed,
});
export const ModifyCollaborator = defineEndpoint({
  method: 'POST',
  path: '/api/permission/authz/modify_collaborator',
  summary: "Change a collaborator's type",
  body: z.object({ ...Target, user_id: Id, collaborator_type: CollaboratorType }),
  response: Listed,
});
export const RemoveCollaborator = defineEndpoint({
  method: 'POST',
  path: '/api/permission/authz/remove_collaborator',
  summary: 'Take a collaborator off (the last one off opens the resource to the space again)',
  body: z.object({ ...Target, user_id: Id }),
  response: Listed,
});

/** What the open API answers after adding or taking off collaborators (Coze's shape): who collaborates now. */
export const OpenCollaboratorList = z.object({
  collaborators: z.array(z.object({ id: z.string(), name: z.string() })),
});
