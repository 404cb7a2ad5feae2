// A project's dialogs: copy it into another space, and add resources of the space to it.
import { Select, Typography } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, useApi, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SpaceSelect } from '@tessera/ext-spaces/widgets';
import { AddProjectResources, CopyProjectToSpace, type ProjectInfo } from '../shared/api.ts';
import type { EndpointOutput } from '@tessera/sdk';
import type { ListResources } from '@tessera/ext-library/api';

type Info = ProjectInfo;

export function CopyToModal({
  project,
  onClose,
  onCopied,
}: {
  project: Info['project'];
  onClose(): void;
  onCopied(r: { project_id: string; skipped: unknown[] }, to: string): void;
}) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const [to, setTo] = useState<string>();
  const copy = useMutation({
    mutationFn: () =>
      api.call(CopyProjectToSpace, {
        project_id: project.project_id,
        to_space_id: to ?? '',
      }),
    onSuccess: (r) => {
      onClose();
      onCopied(r, to!);
    },
  });
  return (
    <Modal
      visible
      title={t('copyToTitle', { name: project.name })}
      onCancel={onClose}
      onOk={() => copy.mutate()}
      confirmLoading={copy.isPending}
      okButtonProps={{ disabled: !to, ...testId('project-copy-to-save') }}
    >
      <Typography.Paragraph type="secondary">{t('copyToHelp')}</Typography.Paragraph>
      <SpaceSelect placeholder={t('copyToSpace')} value={to} onChange={setTo} testId="project-copy-to-space" />
    </Modal>
  );
}

export function AddModal({ spaceId, info, onClose }: { spaceId: string; info: Info; onClose(): void }) {
  const { t } = useTranslation('projects');
  const api = useApi();
  const qc = useQueryClient();
  const [chosen, setChosen] = useState<string[]>([]);
  const have = new Set(info.resources.map((r) => `${r.res_type}:${r.res_id}`));
  const list = useQuery({
    queryKey: ['projects', 'space-resources', spaceId],
    queryFn: () =>
      api.post<EndpointOutput<typeof ListResources>>('/api/resource/library_resource_list', {
        space_id: spaceId,
        size: 100,
      }),
  });
  const options = (list.data?.resource_list ?? []).filter(
    (r) => r.res_type !== 'project' && !have.has(`${r.res_type}:${r.res_id}`),
  );
  const add = useMutation({
    mutationFn: () =>
      api.call(AddProjectResources, {
        project_id: info.project.project_id,
        resources: chosen.map((c) => ({ res_type: c.split(':')[0], res_id: c.split(':')[1] })),
      }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['projects'] });
      onClose();
    },
  });
  return (
    <Modal
      visible
      title={t('addTitle')}
      onCancel={onClose}
      onOk={() => add.mutate()}
      confirmLoading={add.isPending}
      okButtonProps={{ disabled: !chosen.length, ...testId('project-add-save') }}
    >
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        placeholder={t('addHelp')}
        value={chosen}
        onChange={setChosen}
        loading={list.isLoading}
        data-testid="project-add-select"
        showSearch
        filterOption={(input, o) =>
          String((o as { props?: { children?: unknown } }).props?.children ?? '')
            .toLowerCase()
            .includes(input.toLowerCase())
        }
      >
        {options.map((r) => (
          <Select.Option key={`${r.res_type}:${r.res_id}`} value={`${r.res_type}:${r.res_id}`}>
            {r.name}
          </Select.Option>
        ))}
      </Select>
    </Modal>
  );
}
