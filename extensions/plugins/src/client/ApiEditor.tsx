// Add or change an API: name, description, method, path, request and response parameters.
import { Form, Input, Select, Space } from '@arco-design/web-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Modal, fieldErrors, toast, useApi, testId } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { METHOD_NAMES, type APIParameter } from '../shared/index.ts';
import type { ApiInfo } from './api.ts';
import { ParamsEditor } from './ParamsEditor.tsx';
import { CreateApi, UpdateApi } from '../shared/api.ts';

export function ApiEditor({
  spaceId,
  pluginId,
  api: existing,
  onClose,
}: {
  spaceId: string;
  pluginId: string;
  api?: ApiInfo;
  onClose(): void;
}) {
  const { t } = useTranslation('plugins');
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState(existing?.name ?? '');
  const [desc, setDesc] = useState(existing?.desc ?? '');
  const [method, setMethod] = useState(existing?.method ?? 1);
  const [path, setPath] = useState(existing?.path ?? '/');
  const [request, setRequest] = useState<APIParameter[]>(existing?.request_params ?? []);
  const [response, setResponse] = useState<APIParameter[]>(existing?.response_params ?? []);
  const [problem, setProblem] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => {
      const body = {
        space_id: spaceId,
        plugin_id: pluginId,
        name: name.trim(),
        desc,
        method,
        path: path.trim(),
        request_params: request,
        response_params: response,
      };
      const handled = fieldErrors(['name', 'path', 'request_params'], (f, msg) =>
        setProblem((p) => ({ ...p, [f]: msg })),
      );
      return existing
        ? api.call(UpdateApi, { ...body, api_id: existing.api_id }, { handled })
        : api.call(CreateApi, body, { handled });
    },
    onSuccess: async () => {
      toast.success(existing ? t('apis.saved') : t('apis.created'));
      await qc.invalidateQueries({ queryKey: ['plugins'] });
      onClose();
    },
  });
  return (
    <Modal
      visible
      size="large"
      title={existing ? t('apis.editTitle', { name: existing.name }) : t('apis.create')}
      onCancel={onClose}
      onOk={() => save.mutate()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: !name.trim() || !path.trim(), ...testId('api-save') }}
    >
      <Form layout="vertical">
        <Form.Item
          label={t('apis.name')}
          required
          extra={t('apis.nameHelp')}
          validateStatus={problem.name ? 'error' : undefined}
          help={problem.name}
        >
          <Input value={name} maxLength={64} onChange={(v) => (setName(v), setProblem({}))} data-testid="api-name" />
        </Form.Item>
        <Form.Item label={t('apis.desc')} extra={t('apis.descHelp')}>
          <Input.TextArea
            value={desc}
            maxLength={2000}
            autoSize={{ minRows: 1, maxRows: 4 }}
            onChange={setDesc}
            data-testid="api-desc"
          />
        </Form.Item>
        <Form.Item
          label={t('apis.path')}
          required
          validateStatus={problem.path ? 'error' : undefined}
          help={problem.path}
        >
          <Space style={{ width: '100%' }}>
            <Select
              style={{ width: 110 }}
              value={method}
              onChange={setMethod}
              aria-label={t('apis.method')}
              data-testid="api-method"
            >
              {Object.entries(METHOD_NAMES).map(([n, label]) => (
                <Select.Option key={n} value={Number(n)}>
                  {label}
                </Select.Option>
              ))}
            </Select>
            <Input
              style={{ width: 420 }}
              value={path}
              placeholder="/items/{id}"
              onChange={(v) => (setPath(v), setProblem({}))}
              data-testid="api-path"
            />
          </Space>
        </Form.Item>
        <Form.Item
          label={t('apis.request')}
          validateStatus={problem.request_params ? 'error' : undefined}
          help={problem.request_params}
        >
          <ParamsEditor
            params={request}
            onChange={(p) => (setRequest(p), setProblem({}))}
            request
            testId="api-request"
          />
        </Form.Item>
        <Form.Item label={t('apis.response')} extra={t('apis.responseHelp')}>
          <ParamsEditor params={response} onChange={setResponse} request={false} testId="api-response" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
