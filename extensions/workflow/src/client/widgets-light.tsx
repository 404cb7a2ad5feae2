// The light part of the workflow editor's widgets, which other extensions' node types use at start (a hint
// form, the field types, the variables): the inputs themselves are in widgets.tsx, loaded with the forms.
import { Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListVariables } from '@tessera/ext-variables/api';

export const FIELD_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'file'] as const;

/** A field type as the language shown names it ("字符串" for string in zh-CN); a type it does not know, as it is. */
export function useTypeLabel(): (type: string) => string {
  const { t } = useTranslation('workflow');
  return (type: string) => t(`types.${type}`, { defaultValue: type });
}

/** A field's validation problem from the server, under the field. */
export function FieldProblem({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <Typography.Text type="error" style={{ display: 'block', fontSize: 12 }} data-testid="field-problem">
      {message}
    </Typography.Text>
  );
}

/** A variable an input may read: system ones always, app and user ones when the variables extension runs. */
export interface VariableRef {
  scope: 'system' | 'user' | 'app';
  name: string;
}
export const SYSTEM_VARIABLES: VariableRef[] = ['user_id', 'space_id', 'workflow_id', 'execute_id'].map((name) => ({
  scope: 'system',
  name,
}));

/** The variables inputs may read in a space: system ones, and its app and the user's variables (when the variables extension runs). */
export function useVariables(spaceId: string): VariableRef[] {
  const api = useApi();
  const q = useQuery({
    queryKey: ['workflow', 'variables', spaceId],
    queryFn: async () => {
      const list = async (scope: 'app' | 'user') => {
        try {
          const r = await api.post<EndpointOutput<typeof ListVariables>>(
            '/api/variables/list',
            { space_id: spaceId, scope },
            { handled: () => true },
          );
          return r.variables.map((x) => ({ scope, name: x.name }));
        } catch {
          return []; // the variables extension is off
        }
      };
      return [...(await list('app')), ...(await list('user'))];
    },
  });
  return useMemo(() => [...SYSTEM_VARIABLES, ...(q.data ?? [])], [q.data]);
}

/**
 * The form of a node type that has no settings: a line saying what it does, translated from
 * `textKey` ('ns:key'); `testId` names it for tests.
 */
export function hintForm(textKey: string, testId: string) {
  return function HintForm() {
    const { t } = useTranslation();
    return (
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: 0 }} data-testid={testId}>
        {t(textKey)}
      </Typography.Paragraph>
    );
  };
}
