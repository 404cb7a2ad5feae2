// Publishing a project's version to connectors, and what each resource got.
import { Alert, Checkbox, Input, Space, Table, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, SchemaFields, toast, useApi, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CheckVersion,
  ListPublishConnectors,
  ListPublishRecords,
  PublishProject,
  type ProjectInfo,
} from '../shared/api.ts';
import type { EndpointOutput } from '@tessera/sdk';

type Info = ProjectInfo;
type PublishResult = EndpointOutput<typeof PublishProject>['results'][number];

export function PublishModal({ info, onClose, onDone }: { info: Info; onClose(): void; onDone(): void }) {
  const { t, i18n } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const p = info.project;
  const suggested = p.version ? p.version.replace(/(\d+)$/, (d) => String(Number(d) + 1)) : '1.0.0';
  const [version, setVersion] = useState(suggested);
  const [description, setDescription] = useState('');
  const connectors = useQuery({
    queryKey: ['projects', 'connectors', p.project_id],
    queryFn: () => api.call(ListPublishConnectors, { project_id: p.project_id }),
  });
  const [chosen, setChosen] = useState<string[] | undefined>();
  const picked = chosen ?? connectors.data?.connectors.map((c) => c.id) ?? [];
  // The last publication's connector settings (the Web SDK's allowed origins ...) are the starting point.
  const records = useQuery({
    queryKey: ['projects', 'records', p.project_id],
    queryFn: () => api.call(ListPublishRecords, { project_id: p.project_id }),
  });
  const [settings, setSettings] = useState<Record<string, Record<string, unknown>>>({});
  const settingsOf = (id: string) => settings[id] ?? records.data?.records[0]?.connector_settings?.[id] ?? {};
  const [settingsProblem, setSettingsProblem] = useState('');
  const check = useQuery({
    queryKey: ['projects', 'check', p.project_id, version],
    queryFn: () =>
      api.call(CheckVersion, {
        project_id: p.project_id,
        version_number: version.trim(),
      }),
  });
  const [results, setResults] = useState<PublishResult[] | undefined>();
  const publish = useMutation({
    mutationFn: () =>
      api.call(
        PublishProject,
        {
          project_id: p.project_id,
          version_number: version.trim(),
          description,
          connectors: picked,
          connector_settings: Object.fromEntries(picked.map((id) => [id, settingsOf(id)])),
        },
        {
          handled: (e) =>
            String(e.detail?.field ?? '').startsWith('connector_settings') ? (setSettingsProblem(e.msg), true) : false,
        },
      ),
    onSuccess: (r) => {
      setResults(r.results);
      toast[r.status === 1 ? 'success' : 'warning'](t(`publishStatus.${r.status}`));
      // Not awaited: the dialog's Done button is ready with the results (a busy studio refetches for a while, and a
      // click on a button still loading is lost).
      void qc.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  return (
    <Modal
      visible
      size="medium"
      title={t('publishTitle', { name: p.name })}
      onCancel={results ? () => (onClose(), onDone()) : onClose}
      onOk={() => (results ? (onClose(), onDone()) : publish.mutate())}
      confirmLoading={publish.isPending}
      okText={results ? t('done') : t('publish')}
      okButtonProps={{
        // Until the connectors are known, a publication would go nowhere (an empty list of them).
        disabled: !results && (!check.data?.is_valid || !connectors.data),
        ...testId('project-publish-confirm'),
      }}
    >
      {results ? (
        <ResultsTable results={results} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('version')}</Typography.Text>
          <Input
            value={version}
            onChange={setVersion}
            status={check.data && !check.data.is_valid ? 'error' : undefined}
            data-testid="project-publish-version"
          />
          {check.data && !check.data.is_valid && (
            <Typography.Text type="error" data-testid="project-version-problem">
              {check.data.msg}
            </Typography.Text>
          )}
          <Typography.Text>{t('changes')}</Typography.Text>
          <Input.TextArea
            value={description}
            onChange={setDescription}
            maxLength={2000}
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
          <Typography.Text>{t('connectors')}</Typography.Text>
          <Checkbox.Group value={picked} onChange={setChosen}>
            {(connectors.data?.connectors ?? []).map((c) => (
              <Checkbox key={c.id} value={c.id}>
                {c.name[i18n.language] ?? c.name['en-US'] ?? c.id}
              </Checkbox>
            ))}
          </Checkbox.Group>
          {(connectors.data?.connectors ?? [])
            .filter((c) => picked.includes(c.id) && c.settings_schema?.properties)
            .map((c) => (
              <div key={c.id} data-testid={`project-publish-settings-${c.id}`}>
                <Typography.Text type="secondary">
                  {c.description?.[i18n.language] ?? c.name[i18n.language] ?? c.id}
                </Typography.Text>
                <SchemaFields
                  schema={c.settings_schema!}
                  value={settingsOf(c.id)}
                  onChange={(v) => (setSettings({ ...settings, [c.id]: v }), setSettingsProblem(''))}
                  label={(field) => t(`setting.${field}`, { defaultValue: field })}
                  testIdPrefix="project-publish-setting"
                />
              </div>
            ))}
          {settingsProblem && (
            <Typography.Text type="error" data-testid="project-publish-settings-problem">
              {settingsProblem}
            </Typography.Text>
          )}
          <Alert type="info" content={t('publishHelp')} />
        </Space>
      )}
    </Modal>
  );
}

export function ResultsTable({ results }: { results: PublishResult[] }) {
  const { t } = useTranslation('projects');
  return (
    <Table
      size="small"
      rowKey="res_id"
      pagination={false}
      data={results}
      data-testid="project-publish-results"
      columns={[
        { title: t('resource'), dataIndex: 'name', width: 180 },
        {
          title: t('result'),
          dataIndex: 'status',
          width: 130,
          render: (s: string) => (
            <Tag
              color={s === 'published' ? 'green' : s === 'failed' ? 'red' : undefined}
              data-testid="project-publish-result"
            >
              {t(`result_${s}`)}
            </Tag>
          ),
        },
        { title: t('detail'), dataIndex: 'version', render: (v: string, r: PublishResult) => v ?? r.reason ?? '' },
      ]}
    />
  );
}
