// @tessera/ext-spaces/widgets: pieces other extensions' pages use. SpaceSelect: choose one of the caller's
// spaces (copy into, duplicate into ...).
import { Select } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { ListMembers, ListSpaces } from '../shared/index.ts';

export function SpaceSelect({
  value,
  onChange,
  placeholder,
  testId,
}: {
  value?: string;
  onChange(spaceId: string): void;
  placeholder?: string;
  testId?: string;
}) {
  const api = useApi();
  const spaces = useQuery({
    queryKey: ['spaces', 'list'],
    queryFn: () => api.call(ListSpaces, {}),
  });
  return (
    <Select
      style={{ width: '100%' }}
      placeholder={placeholder}
      value={value || undefined}
      onChange={onChange}
      loading={spaces.isLoading}
      showSearch
      filterOption={(input, o) =>
        String((o as { props?: { children?: unknown } }).props?.children ?? '')
          .toLowerCase()
          .includes(input.toLowerCase())
      }
      data-testid={testId}
    >
      {(spaces.data?.spaces ?? []).map((s) => (
        <Select.Option key={s.space_id} value={s.space_id}>
          {s.name}
        </Select.Option>
      ))}
    </Select>
  );
}

export interface SpaceMember {
  user_id: string;
  name: string;
  email: string;
}

/** The space's members (the first 100 by name), for pickers of people (collaborators, annotators, approvers). */
export function useSpaceMembers(spaceId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['spaces', 'members', spaceId],
    enabled: !!spaceId,
    queryFn: async () =>
      (await api.call(ListMembers, { space_id: spaceId!, page: 1, size: 100 })).members as SpaceMember[],
  });
}
