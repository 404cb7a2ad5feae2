// The getting-started step "connect a model": done once the space can use a model (its own or the platform's).
import { useQuery } from '@tanstack/react-query';
import { useApi, type OnboardingStep } from '@tessera/sdk/client';
import { useSyncExternalStore } from 'react';
import { currentServices } from './services.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { IntelligenceModelList } from '../shared/api.ts';

function useModelConnected(): { done: boolean; loading: boolean } {
  const api = useApi();
  const { space } = currentServices();
  const spaceId = useSyncExternalStore(space.subscribe, space.get, space.get);
  const q = useQuery({
    queryKey: ['models', 'usable', spaceId],
    enabled: !!spaceId,
    queryFn: () =>
      api.post<EndpointOutput<typeof IntelligenceModelList>>(
        '/api/intelligence_api/model/list',
        { space_id: spaceId },
        { suppressNotice: true },
      ),
  });
  // Until the space is known the step is not known either (the list would show, then hide, then show again).
  return { done: (q.data?.models.length ?? 0) > 0, loading: !spaceId || q.isPending };
}

export const connectModelStep: OnboardingStep = {
  key: 'connect-model',
  label: 'onboarding.model',
  hint: 'onboarding.modelHint',
  order: 10,
  path: '/models',
  useDone: useModelConnected,
};
