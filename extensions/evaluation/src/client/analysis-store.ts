// The state of an experiment's analysis: the space's rule groups, an experiment's verdicts by one, its scores by a
// column, a contrast report, and people's scores on results.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi, type EndpointInput } from '@tessera/sdk/client';
import {
  Analysis,
  Contrast,
  CorrectScore,
  CreateRuleGroup,
  DeleteRuleGroup,
  ListRuleGroups,
  RuleResults,
} from '../shared/analysis-api.ts';

export function useRuleGroups(spaceId: string) {
  const api = useApi();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['evaluation'] });
  return {
    list: useQuery({
      queryKey: ['evaluation', 'rule-groups', spaceId],
      queryFn: async () => (await api.call(ListRuleGroups, { space_id: spaceId })).rule_groups,
      enabled: !!spaceId,
    }),
    create: useMutation({
      mutationFn: (b: Omit<EndpointInput<typeof CreateRuleGroup>, 'space_id'>) =>
        api.call(CreateRuleGroup, { space_id: spaceId, ...b }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (rule_group_id: string) => api.call(DeleteRuleGroup, { space_id: spaceId, rule_group_id }),
      onSuccess: refresh,
    }),
  };
}

export function useRuleResults(
  spaceId: string,
  experimentId: string,
  ruleGroupId: string | undefined,
  finished: number,
) {
  const api = useApi();
  return useQuery({
    queryKey: ['evaluation', 'rule-results', experimentId, ruleGroupId, finished],
    queryFn: () =>
      api.call(RuleResults, { space_id: spaceId, experiment_id: experimentId, rule_group_id: ruleGroupId! }),
    enabled: !!ruleGroupId,
  });
}

export function useAnalysis(spaceId: string, experimentId: string, evaluatorId?: string, column?: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['evaluation', 'analysis', experimentId, evaluatorId, column],
    queryFn: () =>
      api.call(Analysis, {
        space_id: spaceId,
        experiment_id: experimentId,
        evaluator_id: evaluatorId!,
        column: column!,
      }),
    enabled: !!evaluatorId && !!column,
  });
}

export function useContrast(spaceId: string, ids: string[], by: { evaluator_id?: string; rule_group_id?: string }) {
  const api = useApi();
  return useQuery({
    queryKey: ['evaluation', 'contrast', ids, by],
    queryFn: () =>
      api.call(Contrast, { space_id: spaceId, base_experiment_id: ids[0], experiment_ids: ids.slice(1), ...by }),
    enabled: ids.length > 1 && (!!by.evaluator_id || !!by.rule_group_id),
  });
}

export function useCorrectScore(spaceId: string, experimentId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: Omit<EndpointInput<typeof CorrectScore>, 'space_id' | 'experiment_id'>) =>
      api.call(CorrectScore, { space_id: spaceId, experiment_id: experimentId, ...b }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['evaluation'] }),
  });
}
