// A new agent app: an app around one of the space's bots (a landing page, the chat, and a form running a workflow
// when one is chosen), written by a chat model from a description, made from the template, or installed from a
// package. The builder opens it.
import { Alert, Input, Modal, Radio, Select, Space, Tag, Typography } from '@arco-design/web-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAgentApps, usePickers } from './store.ts';
import { testId } from '@tessera/sdk/client';

export function AgentAppDialog({ spaceId, visible, onClose }: { spaceId: string; visible: boolean; onClose(): void }) {
  const { t } = useTranslation('ui-builder');
  const navigate = useNavigate();
  const agents = useAgentApps(spaceId);
  const pickers = usePickers(spaceId);
  const [how, setHow] = useState<'model' | 'template' | 'package'>('model');
  const [form, setForm] = useState({ name: '', description: '', bot_id: '', workflow_id: '', package_id: '' });
  const set = (v: Partial<typeof form>) => setForm({ ...form, ...v });
  const busy = agents.create.isPending || agents.generate.isPending;
  const error = (agents.create.error ?? agents.generate.error) as { msg?: string } | null;
  const open = (r: { app: { ui_id: string } }) => {
    onClose();
    void navigate(`/ui-apps/${r.app.ui_id}`);
  };
  const ready =
    how === 'model'
      ? form.description.trim().length >= 4 && !!form.bot_id
      : how === 'template'
        ? !!form.name.trim() && !!form.bot_id
        : !!form.name.trim() && !!form.package_id;
  const submit = () => {
    const workflow_id = form.workflow_id || undefined;
    if (how === 'model')
      agents.generate.mutate({ description: form.description, bot_id: form.bot_id, workflow_id }, { onSuccess: open });
    else
      agents.create.mutate(
        how === 'template'
          ? { name: form.name, description: form.description, bot_id: form.bot_id, workflow_id }
          : { name: form.name, description: form.description, bot_id: '', package_id: form.package_id },
        { onSuccess: open },
      );
  };
  return (
    <Modal
      title={t('agent.title')}
      visible={visible}
      onCancel={onClose}
      onOk={submit}
      okText={how === 'model' ? t('agent.generate') : t('create')}
      okButtonProps={{ disabled: !ready, loading: busy, ...testId('agent-app-submit') }}
      style={{ width: 560 }}
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="agent-app-dialog">
        <Radio.Group type="button" value={how} onChange={setHow} data-testid="agent-app-how">
          <Radio value="model">{t('agent.byModel')}</Radio>
          <Radio value="template">{t('agent.byTemplate')}</Radio>
          <Radio value="package">{t('agent.byPackage')}</Radio>
        </Radio.Group>
        {how !== 'model' && (
          <Input
            value={form.name}
            onChange={(name) => set({ name })}
            placeholder={t('namePlaceholder')}
            maxLength={60}
            data-testid="agent-app-name"
          />
        )}
        <Input.TextArea
          value={form.description}
          onChange={(description) => set({ description })}
          placeholder={t(how === 'model' ? 'agent.describe' : 'agent.description')}
          autoSize={{ minRows: 3, maxRows: 8 }}
          maxLength={how === 'model' ? 2000 : 400}
          data-testid="agent-app-description"
        />
        {how !== 'package' ? (
          <>
            <Select
              placeholder={t('agent.bot')}
              value={form.bot_id || undefined}
              onChange={(bot_id: string) => set({ bot_id })}
              showSearch
              filterOption={(input, option) =>
                String((option as { props?: { children?: unknown } }).props?.children ?? '')
                  .toLowerCase()
                  .includes(input.toLowerCase())
              }
              data-testid="agent-app-bot"
            >
              {(pickers.bots.data ?? []).map((b) => (
                <Select.Option key={b.bot_id} value={b.bot_id}>
                  {b.name}
                </Select.Option>
              ))}
            </Select>
            {form.bot_id && !pickers.bots.data?.find((b) => b.bot_id === form.bot_id)?.web_app && (
              <Typography.Text type="warning" style={{ fontSize: 12 }}>
                {t('agent.publishBot')}
              </Typography.Text>
            )}
            <Select
              placeholder={t('agent.workflow')}
              value={form.workflow_id || undefined}
              onChange={(workflow_id: string) => set({ workflow_id: workflow_id ?? '' })}
              allowClear
              data-testid="agent-app-workflow"
            >
              {(pickers.workflows.data ?? []).map((w) => (
                <Select.Option key={w.workflow_id} value={w.workflow_id}>
                  {w.name} {!w.published && <Tag size="small">{t('draft')}</Tag>}
                </Select.Option>
              ))}
            </Select>
          </>
        ) : (
          <Select
            placeholder={t('agent.package')}
            value={form.package_id || undefined}
            onChange={(package_id: string) => set({ package_id })}
            data-testid="agent-app-package"
          >
            {(agents.packages.data ?? []).map((p) => (
              <Select.Option key={p.package_id} value={p.package_id}>
                {p.name} · v{p.latest_version}
              </Select.Option>
            ))}
          </Select>
        )}
        {busy && how === 'model' && <Alert type="info" content={t('agent.writing')} />}
        {error && <Alert type="error" content={error.msg} />}
      </Space>
    </Modal>
  );
}
