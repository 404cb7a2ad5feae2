// The workspace's query box: what the agent should do, files to give it, its model, tools, experts, whether the plan
// waits for the person, and its limits. Sent, the task page opens.
import { Button, Collapse, Input, InputNumber, Radio, Select, Space, Tag, Upload } from '@arco-design/web-react';
import { IconAttachment, IconSend, IconTool } from '@arco-design/web-react/icon';
import { ModelSelect } from '@tessera/ext-models/client';
import { SidePanel, useApi } from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ToolPicker } from './ToolPicker.tsx';
import { useCreateTask, useExperts, useQuota, type TaskInput } from './store.ts';

const LIMITS = { max_steps: 30, max_tokens: 200_000, max_minutes: 30 };
type Draft = Required<Pick<TaskInput, 'query' | 'model_id' | 'tools' | 'code' | 'task_run_mode'>> & {
  experts: string[];
  limits: typeof LIMITS;
  files: { id: string; name: string }[];
};

export function Composer({ spaceId, query, onQuery }: { spaceId: string; query: string; onQuery(q: string): void }) {
  const { t } = useTranslation('agent-workspace');
  const api = useApi();
  const navigate = useNavigate();
  const create = useCreateTask(spaceId);
  const quota = useQuota(spaceId);
  const experts = useExperts(spaceId).list.data ?? [];
  const [d, setD] = useState<Omit<Draft, 'query'>>({
    model_id: '',
    tools: {},
    code: true,
    task_run_mode: 'auto',
    experts: [],
    limits: LIMITS,
    files: [],
  });
  const [toolsOpen, setToolsOpen] = useState(false);
  const [uploading, setUploading] = useState(false);
  const change = (p: Partial<typeof d>) => setD((x) => ({ ...x, ...p }));
  const toolCount = Object.keys(d.tools).length + (d.code ? 1 : 0);
  const upload = async (file: File) => {
    setUploading(true);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const r = await api.post<{ files: { id: string; file_name: string }[] }>(
        `/api/files/upload?space_id=${spaceId}`,
        form,
      );
      change({ files: [...d.files, ...r.files.map((f) => ({ id: f.id, name: f.file_name }))] });
    } finally {
      setUploading(false);
    }
  };
  const send = () =>
    create.mutate(
      {
        query,
        model_id: d.model_id,
        tools: d.tools,
        code: d.code,
        task_run_mode: d.task_run_mode,
        limits: d.limits,
        file_uri_list: d.files.map((f) => f.id),
        expert_agent_config: experts
          .filter((e) => d.experts.includes(e.expert_id))
          .map(({ expert_id, name, description, persona, model_id }) => ({
            expert_id,
            name,
            description,
            persona,
            model_id,
          })),
      },
      { onSuccess: (r) => void navigate(`/agent/tasks/${r.task.task_id}`) },
    );
  const q = quota.data;
  return (
    <div className="tessera-agent-composer" data-testid="agent-composer">
      <Input.TextArea
        value={query}
        onChange={onQuery}
        placeholder={t('composer.placeholder')}
        autoSize={{ minRows: 3, maxRows: 12 }}
        maxLength={20_000}
        data-testid="agent-query"
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && query.trim() && d.model_id) send();
        }}
      />
      {d.files.length > 0 && (
        <div style={{ display: 'flex', gap: 6, flexWrap: 'wrap', marginTop: 8 }}>
          {d.files.map((f) => (
            <Tag key={f.id} closable onClose={() => change({ files: d.files.filter((x) => x.id !== f.id) })}>
              {f.name}
            </Tag>
          ))}
        </div>
      )}
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center', marginTop: 10 }}>
        <div style={{ width: 220 }} data-testid="agent-model">
          <ModelSelect
            spaceId={spaceId}
            value={d.model_id || undefined}
            onChange={(model_id) => change({ model_id })}
          />
        </div>
        <Button icon={<IconTool />} onClick={() => setToolsOpen(true)} data-testid="agent-tools-open">
          {t('composer.tools', { count: toolCount })}
        </Button>
        <Upload
          showUploadList={false}
          customRequest={({ file }) => void upload(file)}
          disabled={uploading || d.files.length >= 20}
        >
          <Button icon={<IconAttachment />} loading={uploading} data-testid="agent-attach">
            {t('composer.attach')}
          </Button>
        </Upload>
        {experts.length > 0 && (
          <Select
            mode="multiple"
            value={d.experts}
            onChange={(experts) => change({ experts })}
            placeholder={t('composer.experts')}
            style={{ minWidth: 180, maxWidth: 320 }}
            data-testid="agent-experts"
          >
            {experts.map((e) => (
              <Select.Option key={e.expert_id} value={e.expert_id}>
                {e.name}
              </Select.Option>
            ))}
          </Select>
        )}
        <span style={{ flex: 1 }} />
        <Button
          type="primary"
          icon={<IconSend />}
          disabled={!query.trim() || !d.model_id}
          loading={create.isPending}
          onClick={send}
          data-testid="agent-send"
        >
          {t('composer.send')}
        </Button>
      </div>
      <Collapse bordered={false} style={{ marginTop: 6 }}>
        <Collapse.Item name="more" header={t('composer.more')} data-testid="agent-more">
          <Space direction="vertical" size={10}>
            <Radio.Group
              type="button"
              size="small"
              value={d.task_run_mode}
              onChange={(task_run_mode) => change({ task_run_mode })}
              data-testid="agent-mode"
            >
              <Radio value="auto">{t('mode.auto')}</Radio>
              <Radio value="confirm_plan">{t('mode.confirm_plan')}</Radio>
            </Radio.Group>
            <Space wrap>
              <span>{t('limits.max_steps')}</span>
              <InputNumber
                min={1}
                max={200}
                value={d.limits.max_steps}
                onChange={(v) => change({ limits: { ...d.limits, max_steps: Number(v) || 1 } })}
                style={{ width: 90 }}
                data-testid="agent-max-steps"
              />
              <span>{t('limits.max_tokens')}</span>
              <InputNumber
                min={1000}
                max={2_000_000}
                step={10_000}
                value={d.limits.max_tokens}
                onChange={(v) => change({ limits: { ...d.limits, max_tokens: Number(v) || 1000 } })}
                style={{ width: 120 }}
              />
              <span>{t('limits.max_minutes')}</span>
              <InputNumber
                min={1}
                max={240}
                value={d.limits.max_minutes}
                onChange={(v) => change({ limits: { ...d.limits, max_minutes: Number(v) || 1 } })}
                style={{ width: 90 }}
              />
            </Space>
            {q && (
              <span style={{ fontSize: 12, color: 'var(--color-text-3)' }} data-testid="agent-quota">
                {t('quota', { used: q.used_today, limit: q.daily_limit, running: q.running, max: q.max_running })}
              </span>
            )}
          </Space>
        </Collapse.Item>
      </Collapse>
      <SidePanel title={t('tools.title')} visible={toolsOpen} onCancel={() => setToolsOpen(false)} size="medium">
        <ToolPicker spaceId={spaceId} tools={d.tools} code={d.code} onChange={change} />
      </SidePanel>
    </div>
  );
}
