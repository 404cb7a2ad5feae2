// A project's variables (app variables): name, default, description, whether end users may set them and
// whether they are on; the system ones listed read-only. Saved with Save, and when the pane is left.
import { Alert, Button, Input, Space, Switch, Table, Tag, Tooltip, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast, useApi, type ApiError } from '@tessera/sdk/client';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListProjectVariables, UpdateProjectVariables } from '../shared/api.ts';
import type { EndpointOutput } from '@tessera/sdk';

interface Variable {
  Keyword: string;
  DefaultValue: string;
  Description: string;
  Enable: boolean;
  IsReadOnly: boolean;
  Schema?: string;
}
type MetaList = EndpointOutput<typeof ListProjectVariables>;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

export function VariablesPane({ projectId }: { projectId: string }) {
  const api = useApi();
  const q = useQuery({
    queryKey: ['projects', 'variables', projectId],
    gcTime: 0,
    queryFn: () => api.call(ListProjectVariables, { ProjectID: projectId }),
  });
  if (!q.data) return null;
  return <Editor projectId={projectId} initial={q.data} />;
}

function Editor({ projectId, initial }: { projectId: string; initial: MetaList }) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const [list, setList] = useState<Variable[]>(initial.VariableList);
  const [dirty, setDirty] = useState(false);
  const [problem, setProblem] = useState<{ row?: number; msg: string }>();
  const latest = useRef({ list, dirty });
  latest.current = { list, dirty };
  const set = (i: number, patch: Partial<Variable>) => {
    setList((l) => l.map((v, j) => (j === i ? { ...v, ...patch } : v)));
    setDirty(true);
    setProblem(undefined);
  };
  const save = useMutation({
    mutationFn: (l: Variable[]) =>
      api.call(
        UpdateProjectVariables,
        { ProjectID: projectId, VariableList: l },
        {
          handled: (e: ApiError) => {
            const field = String(e.detail?.field ?? '');
            const row = /^VariableList\.(\d+)\./.exec(field);
            setProblem({ row: row ? Number(row[1]) : undefined, msg: e.msg });
            return e.status === 400;
          },
        },
      ),
    onSuccess: async () => {
      setDirty(false);
      toast.success(t('variablesSaved'));
      await qc.invalidateQueries({ queryKey: ['projects', 'variables', projectId] });
    },
  });
  // Leaving the pane saves what is pending (when it is valid).
  useEffect(
    () => () => {
      const { list: l, dirty: d } = latest.current;
      if (d && l.every((v) => NAME.test(v.Keyword)))
        void api.call(UpdateProjectVariables, { ProjectID: projectId, VariableList: l }, { handled: () => true });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const names = list.map((v) => v.Keyword);
  const system = initial.GroupConf.find((g) => g.GroupName === 'system')?.VarInfoList ?? [];
  return (
    <div style={{ padding: 24, maxWidth: 1000 }} data-testid="project-variables">
      <Typography.Title heading={5} style={{ marginTop: 0 }}>
        {t('variables')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('variablesIntro')}</Typography.Paragraph>
      {problem && (
        <Alert
          type="error"
          content={problem.msg}
          style={{ marginBottom: 12 }}
          data-testid="project-variables-problem"
        />
      )}
      <Table
        size="small"
        rowKey={(r: Variable & { i: number }) => String(r.i)}
        pagination={false}
        data={list.map((v, i) => ({ ...v, i }))}
        noDataElement={<Typography.Text type="secondary">{t('noVariables')}</Typography.Text>}
        columns={[
          {
            title: t('variableName'),
            width: 200,
            render: (_: unknown, v: Variable & { i: number }) => {
              const bad =
                (!!v.Keyword && !NAME.test(v.Keyword)) || names.indexOf(v.Keyword) !== v.i || problem?.row === v.i;
              return (
                <Input
                  size="small"
                  value={v.Keyword}
                  placeholder="city"
                  status={bad ? 'error' : undefined}
                  onChange={(Keyword) => set(v.i, { Keyword })}
                  data-testid="project-variable-name"
                />
              );
            },
          },
          {
            title: t('variableDefault'),
            width: 180,
            render: (_: unknown, v: Variable & { i: number }) => (
              <Input
                size="small"
                value={v.DefaultValue}
                maxLength={2000}
                onChange={(DefaultValue) => set(v.i, { DefaultValue })}
                data-testid="project-variable-default"
              />
            ),
          },
          {
            title: t('variableDescription'),
            render: (_: unknown, v: Variable & { i: number }) => (
              <Input
                size="small"
                value={v.Description}
                maxLength={300}
                onChange={(Description) => set(v.i, { Description })}
              />
            ),
          },
          {
            title: <Tooltip content={t('variableUserEditableHelp')}>{t('variableUserEditable')}</Tooltip>,
            width: 120,
            render: (_: unknown, v: Variable & { i: number }) => (
              <Switch
                size="small"
                checked={!v.IsReadOnly}
                onChange={(on) => set(v.i, { IsReadOnly: !on })}
                aria-label={t('variableUserEditable')}
              />
            ),
          },
          {
            title: t('variableEnabled'),
            width: 80,
            render: (_: unknown, v: Variable & { i: number }) => (
              <Switch
                size="small"
                checked={v.Enable}
                onChange={(Enable) => set(v.i, { Enable })}
                aria-label={t('variableEnabled')}
              />
            ),
          },
          {
            title: '',
            width: 48,
            render: (_: unknown, v: Variable & { i: number }) => (
              <Button
                size="mini"
                type="text"
                icon={<IconDelete />}
                aria-label={t('variableRemove')}
                onClick={() => {
                  setList((l) => l.filter((_x, j) => j !== v.i));
                  setDirty(true);
                }}
              />
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 12 }}>
        <Button
          icon={<IconPlus />}
          disabled={list.length >= 50}
          onClick={() => {
            setList((l) => [...l, { Keyword: '', DefaultValue: '', Description: '', Enable: true, IsReadOnly: false }]);
            setDirty(true);
          }}
          data-testid="project-variable-add"
        >
          {t('variableAdd')}
        </Button>
        <Button
          type="primary"
          disabled={!dirty}
          loading={save.isPending}
          onClick={() => save.mutate(list)}
          data-testid="project-variables-save"
        >
          {t('save')}
        </Button>
        {dirty && <Typography.Text type="secondary">{t('unsaved')}</Typography.Text>}
      </Space>
      <Typography.Title heading={6}>{t('systemVariables')}</Typography.Title>
      <Space wrap>
        {system.map((v) => (
          <Tooltip key={v.Keyword} content={v.Description}>
            <Tag>{v.Keyword}</Tag>
          </Tooltip>
        ))}
      </Space>
    </div>
  );
}
