// The sub-workflow node's form: which workflow of the space, which version; picking one takes its
// Start fields as this node's inputs and its End result as the outputs.
import { Select, Space, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@tessera/sdk/client';
import { FieldProblem, type NodeFormProps } from '@tessera/ext-workflow/client';
import { WorkflowSelect } from '@tessera/ext-workflow/widgets';
import type { InputBinding } from '@tessera/ext-workflow/shared';
import { useTranslation } from 'react-i18next';
import type { EndpointOutput } from '@tessera/sdk';
import type { GetSignature, ListVersions } from '@tessera/ext-workflow/api';

export function SubWorkflowForm({ node, onParam, spaceId, workflowId, problems }: NodeFormProps) {
  const { t } = useTranslation('node-subworkflow');
  const api = useApi();
  const s = node.node_param.settings as { workflow_id?: string; version?: string };
  const versions = useQuery({
    queryKey: ['workflow', 'versions', s.workflow_id],
    enabled: !!s.workflow_id,
    queryFn: () =>
      api.post<EndpointOutput<typeof ListVersions>>('/api/workflow_api/version_list', {
        space_id: spaceId,
        workflow_id: s.workflow_id,
        size: 50,
      }),
  });
  const pick = async (id: string) => {
    const sig = await api.post<EndpointOutput<typeof GetSignature>>('/api/workflow_api/signature', {
      space_id: spaceId,
      workflow_id: id,
    });
    // Inputs already bound keep their values; new fields start empty.
    const old = new Map(node.node_param.inputs.map((i) => [i.name, i]));
    const inputs: InputBinding[] = sig.inputs.map(
      (f) =>
        old.get(f.name) ?? {
          name: f.name,
          type: f.type,
          ...(f.items ? { items: f.items } : {}),
          value: { kind: 'literal', value: f.default ?? '' },
        },
    );
    onParam({ settings: { workflow_id: id }, inputs, outputs: sig.outputs });
  };
  return (
    <div data-testid="subworkflow-form">
      <WorkflowSelect
        spaceId={spaceId}
        exclude={workflowId}
        value={s.workflow_id}
        onChange={(id) => void pick(id)}
        testId="subworkflow-select"
      />
      <FieldProblem message={problems['settings.workflow_id']} />
      {s.workflow_id && (
        <Space size={4} style={{ marginTop: 8 }}>
          <span style={{ fontSize: 12 }}>{t('version')}</span>
          <Select
            size="small"
            style={{ width: 180 }}
            value={s.version ?? ''}
            onChange={(version: string) => onParam({ settings: { ...s, version: version || undefined } })}
            data-testid="subworkflow-version"
          >
            <Select.Option value="">{t('latest')}</Select.Option>
            <Select.Option value="draft">{t('draft')}</Select.Option>
            {(versions.data?.version_list ?? []).map((v) => (
              <Select.Option key={v.version} value={v.version}>
                {v.version}
              </Select.Option>
            ))}
          </Select>
        </Space>
      )}
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6 }}>
        {t('hint')}
      </Typography.Paragraph>
    </div>
  );
}
