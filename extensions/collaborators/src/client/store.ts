// The collaborators panel's state: the resource's collaborators, the space's members to choose from, and changes.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useSpaceMembers } from '@tessera/ext-spaces/widgets';
import { AddCollaborator, ListCollaborators, RemoveCollaborator } from '../shared/api.ts';

export type CollaboratedKind = 'workflow' | 'bot' | 'project';

export function useCollaborators(spaceId: string, kind: CollaboratedKind, id: string) {
  const api = useApi();
  const qc = useQueryClient();
  const key = ['collaborators', kind, id];
  const target = { space_id: spaceId, resource_type: kind, resource_id: id };
  const list = useQuery({ queryKey: key, queryFn: () => api.call(ListCollaborators, target) });
  const members = useSpaceMembers(spaceId);
  const set = (data: unknown) => qc.setQueryData(key, data);
  const add = useMutation({
    mutationFn: (userId: string) => api.call(AddCollaborator, { ...target, user_id: userId, collaborator_type: 1 }),
    onSuccess: set,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => api.call(RemoveCollaborator, { ...target, user_id: userId }),
    onSuccess: set,
  });
  return { list, members, add, remove };
}
