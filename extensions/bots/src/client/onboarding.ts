// The getting-started steps of bots: make one, talk to it, publish it (done as the space's bots say).
import { useQuery } from '@tanstack/react-query';
import { useApi, type OnboardingStep } from '@tessera/sdk/client';
import { useSpaceId } from './space.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { SpaceProgress } from '../shared/api.ts';

type Progress = EndpointOutput<typeof SpaceProgress>;

/** One request for the three steps (they share the query). */
function useProgress(): { data?: Progress; loading: boolean } {
  const api = useApi();
  const spaceId = useSpaceId();
  const q = useQuery({
    queryKey: ['bots', 'progress', spaceId],
    enabled: !!spaceId,
    queryFn: () => api.post<Progress>('/api/draftbot/space_progress', { space_id: spaceId }, { suppressNotice: true }),
  });
  // Until the space is known the steps are not known either (the list would show, then hide, then show again).
  return { data: q.data, loading: !spaceId || q.isPending };
}

const step = (key: string, order: number, path: string, done: (p: Progress) => boolean): OnboardingStep => ({
  key,
  label: `gettingStarted.${key}`,
  hint: `gettingStarted.${key}Hint`,
  order,
  path,
  useDone() {
    const p = useProgress();
    return { done: !!p.data && done(p.data), loading: p.loading };
  },
});

export const botSteps: OnboardingStep[] = [
  step('create', 20, '/bots?create=1', (p) => p.bot_count > 0),
  step('try', 30, '/bots', (p) => p.chatted),
  step('publish', 40, '/bots', (p) => p.published),
];
