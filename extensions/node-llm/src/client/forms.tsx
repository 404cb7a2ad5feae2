// The LLM node's form (model, parameters, prompts, output format, workflows as tools) and the Intent
// node's form (model, intents, mode, instructions).
import { Button, Input, InputNumber, Radio, Space, Switch, Typography } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useApi } from '@tessera/sdk/client';
import { ModelParamsPanel, ModelSelect } from '@tessera/ext-models/client';
import type { ModelParams } from '@tessera/ext-models/shared';
import { FieldProblem, type NodeFormProps } from '@tessera/ext-workflow/client';
import { FieldsEditor, TemplateInput, WorkflowSelect } from '@tessera/ext-workflow/widgets';
import type { FieldDecl } from '@tessera/ext-workflow/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EndpointOutput } from '@tessera/sdk';
import type { GetSignature } from '@tessera/ext-workflow/api';

interface Skill {
  workflow_id: string;
  version?: string;
  name: string;
  description: string;
  parameters: FieldDecl[];
}
interface LlmSettings {
  model_id?: string;
  /** The model's name when it was chosen (the card shows it). */
  model_name?: string;
  backup_model_id?: string;
  params?: ModelParams;
  system_prompt?: string;
  user_prompt?: string;
  prompt_ref?: { prompt_key: string; label?: string; version?: string };
  history_rounds?: number;
  output_format?: 'text' | 'markdown' | 'json';
  json_fields?: FieldDecl[];
  streaming?: boolean;
  skills?: Skill[];
  max_tool_rounds?: number;
}

const Label = ({ children }: { children: ReactNode }) => (
  <Typography.Text style={{ display: 'block', fontSize: 12, margin: '10px 0 4px' }}>{children}</Typography.Text>
);

/** A tool name the model accepts, from a workflow's name. */
export function toolName(name: string, taken: string[]): string {
  const base = (
    name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'workflow'
  )
    .replace(/^(\d)/, '_$1')
    .slice(0, 56);
  let n = base;
  for (let i = 2; taken.includes(n); i++) n = `${base}_${i}`;
  return n;
}

export function LlmForm({ node, onSettings, upstream, spaceId, workflowId, problems }: NodeFormProps) {
  const { t } = useTranslation('node-llm');
  const api = useApi();
  const s = node.node_param.settings as LlmSettings;
  const set = (patch: Partial<LlmSettings>) => onSettings({ ...s, ...patch });
  const skills = s.skills ?? [];
  const format = s.output_format ?? 'text';
  const addSkill = async (id: string, name: string) => {
    const sig = await api.post<EndpointOutput<typeof GetSignature>>('/api/workflow_api/signature', {
      space_id: spaceId,
      workflow_id: id,
    });
    set({
      skills: [
        ...skills,
        {
          workflow_id: id,
          name: toolName(
            name,
            skills.map((x) => x.name),
          ),
          description: name,
          parameters: sig.inputs,
        },
      ],
    });
  };
  return (
    <div data-testid="llm-form">
      <Label>{t('model')}</Label>
      <ModelSelect
        spaceId={spaceId}
        value={s.model_id || undefined}
        onChange={(model_id, m) => set({ model_id, model_name: m?.display_name })}
        style={{ width: '100%' }}
      />
      <FieldProblem message={problems['settings.model_id']} />
      <Label>{t('params')}</Label>
      <ModelParamsPanel value={s.params ?? {}} onChange={(params) => set({ params })} />
      <Label>{t('promptSource')}</Label>
      <Radio.Group
        type="button"
        size="small"
        value={s.prompt_ref ? 'library' : 'here'}
        onChange={(v) => set({ prompt_ref: v === 'library' ? { prompt_key: '', label: 'production' } : undefined })}
        data-testid="llm-prompt-source"
      >
        <Radio value="here">{t('promptHere')}</Radio>
        <Radio value="library" data-testid="llm-prompt-library">
          {t('promptLibrary')}
        </Radio>
      </Radio.Group>
      {s.prompt_ref ? (
        <>
          <Space style={{ marginTop: 6 }}>
            <Input
              size="small"
              placeholder={t('promptKey')}
              value={s.prompt_ref.prompt_key}
              onChange={(prompt_key) => set({ prompt_ref: { ...s.prompt_ref!, prompt_key } })}
              status={problems['settings.prompt_ref.prompt_key'] ? 'error' : undefined}
              data-testid="llm-prompt-key"
            />
            <Input
              size="small"
              placeholder={t('promptLabel')}
              value={s.prompt_ref.label ?? ''}
              onChange={(label) => set({ prompt_ref: { ...s.prompt_ref!, label: label || undefined } })}
              style={{ width: 140 }}
              data-testid="llm-prompt-label"
            />
          </Space>
          <FieldProblem message={problems['settings.prompt_ref.prompt_key']} />
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {t('promptLibraryHelp')}
          </Typography.Text>
        </>
      ) : (
        <>
          <Label>{t('system')}</Label>
          <TemplateInput
            value={s.system_prompt ?? ''}
            placeholder={t('systemPlaceholder')}
            node={node}
            upstream={upstream}
            onChange={(system_prompt) => set({ system_prompt })}
            testId="llm-system"
          />
          <Label>{t('user')}</Label>
          <TemplateInput
            value={s.user_prompt ?? ''}
            placeholder={t('userPlaceholder')}
            node={node}
            upstream={upstream}
            onChange={(user_prompt) => set({ user_prompt })}
            testId="llm-user"
            error={!!problems['settings.user_prompt']}
          />
          <FieldProblem message={problems['settings.user_prompt']} />
        </>
      )}
      <Label>{t('output')}</Label>
      <Radio.Group
        type="button"
        size="small"
        value={format}
        onChange={(output_format) => set({ output_format })}
        data-testid="llm-format"
      >
        <Radio value="text">{t('text')}</Radio>
        <Radio value="markdown">Markdown</Radio>
        <Radio value="json">JSON</Radio>
      </Radio.Group>
      {format === 'json' && (
        <div style={{ marginTop: 6 }}>
          <FieldsEditor
            fields={s.json_fields ?? []}
            onChange={(json_fields) => set({ json_fields })}
            testId="llm-json-field"
            withRequired
            problemOf={(i) => problems[`settings.json_fields.${i}.name`]}
          />
        </div>
      )}
      <Space style={{ marginTop: 8 }} size={16}>
        <Space size={4}>
          <Switch
            size="small"
            checked={s.streaming !== false}
            onChange={(streaming) => set({ streaming })}
            data-testid="llm-streaming"
          />
          <span style={{ fontSize: 12 }}>{t('streaming')}</span>
        </Space>
        <Space size={4}>
          <span style={{ fontSize: 12 }}>{t('history')}</span>
          <InputNumber
            size="small"
            style={{ width: 70 }}
            min={0}
            max={100}
            value={s.history_rounds ?? 0}
            onChange={(v) => set({ history_rounds: v ?? 0 })}
            data-testid="llm-history"
          />
        </Space>
      </Space>
      <Label>{t('backup')}</Label>
      <Space size={4}>
        <ModelSelect
          spaceId={spaceId}
          value={s.backup_model_id || undefined}
          onChange={(backup_model_id) => set({ backup_model_id })}
          style={{ width: 250 }}
        />
        {s.backup_model_id && (
          <Button
            size="mini"
            type="text"
            icon={<IconDelete />}
            aria-label={t('remove')}
            onClick={() => set({ backup_model_id: undefined })}
          />
        )}
      </Space>
      <Label>{t('skills')}</Label>
      {skills.map((k, i) => (
        <div key={k.workflow_id + i} style={{ marginBottom: 6 }} data-testid={`llm-skill-${i}`}>
          <Space size={4}>
            <Input
              size="small"
              style={{ width: 120 }}
              value={k.name}
              status={problems[`settings.skills.${i}.name`] ? 'error' : undefined}
              onChange={(name) => set({ skills: skills.map((x, j) => (j === i ? { ...x, name } : x)) })}
              data-testid={`llm-skill-${i}-name`}
            />
            <Input
              size="small"
              style={{ width: 160 }}
              placeholder={t('skillDescription')}
              value={k.description}
              onChange={(description) => set({ skills: skills.map((x, j) => (j === i ? { ...x, description } : x)) })}
            />
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('remove')}
              onClick={() => set({ skills: skills.filter((_, j) => j !== i) })}
            />
          </Space>
          <FieldProblem message={problems[`settings.skills.${i}.name`]} />
        </div>
      ))}
      <Space size={4}>
        <IconPlus />
        <WorkflowSelect
          spaceId={spaceId}
          exclude={workflowId}
          value=""
          onChange={(id, name) => void addSkill(id, name)}
          testId="llm-skill-add"
          style={{ width: 240 }}
        />
      </Space>
      {skills.length > 0 && (
        <Space size={4} style={{ display: 'flex', marginTop: 6 }}>
          <span style={{ fontSize: 12 }}>{t('toolRounds')}</span>
          <InputNumber
            size="small"
            style={{ width: 70 }}
            min={1}
            max={20}
            value={s.max_tool_rounds ?? 5}
            onChange={(v) => set({ max_tool_rounds: v ?? 5 })}
          />
        </Space>
      )}
    </div>
  );
}

export function IntentForm({ node, onSettings, upstream, spaceId, problems }: NodeFormProps) {
  const { t } = useTranslation('node-llm');
  const s = node.node_param.settings as {
    model_id?: string;
    model_name?: string;
    intents?: string[];
    mode?: 'fast' | 'full';
    instructions?: string;
  };
  const set = (patch: Record<string, unknown>) => onSettings({ ...s, ...patch });
  const intents = s.intents ?? [];
  return (
    <div data-testid="intent-form">
      <Typography.Paragraph
        type={node.node_param.inputs.some((i) => i.name === 'query') ? 'secondary' : 'warning'}
        style={{ fontSize: 12, margin: 0 }}
      >
        {t('intent.needsQuery')}
      </Typography.Paragraph>
      <Label>{t('model')}</Label>
      <ModelSelect
        spaceId={spaceId}
        value={s.model_id || undefined}
        onChange={(model_id, m) => set({ model_id, model_name: m?.display_name })}
        style={{ width: '100%' }}
      />
      <FieldProblem message={problems['settings.model_id']} />
      <Label>{t('intent.intents')}</Label>
      {intents.map((x, i) => (
        <div key={i} style={{ marginBottom: 4 }}>
          <Space size={4}>
            <span style={{ fontSize: 12, width: 18, display: 'inline-block' }}>{i + 1}</span>
            <Input
              size="small"
              style={{ width: 260 }}
              value={x}
              status={problems[`settings.intents.${i}`] ? 'error' : undefined}
              placeholder={t('intent.placeholder')}
              onChange={(v) => set({ intents: intents.map((y, j) => (j === i ? v : y)) })}
              data-testid={`intent-${i}`}
            />
            <Button
              size="mini"
              type="text"
              icon={<IconDelete />}
              aria-label={t('remove')}
              onClick={() => set({ intents: intents.filter((_, j) => j !== i) })}
            />
          </Space>
          <FieldProblem message={problems[`settings.intents.${i}`]} />
        </div>
      ))}
      <Button
        size="mini"
        type="text"
        icon={<IconPlus />}
        onClick={() => set({ intents: [...intents, ''] })}
        data-testid="intent-add"
      >
        {t('intent.add')}
      </Button>
      <FieldProblem message={problems['settings.intents']} />
      <Label>{t('intent.mode')}</Label>
      <Radio.Group
        type="button"
        size="small"
        value={s.mode ?? 'fast'}
        onChange={(mode) => set({ mode })}
        data-testid="intent-mode"
      >
        <Radio value="fast">{t('intent.fast')}</Radio>
        <Radio value="full">{t('intent.full')}</Radio>
      </Radio.Group>
      <Label>{t('intent.instructions')}</Label>
      <TemplateInput
        value={s.instructions ?? ''}
        node={node}
        upstream={upstream}
        onChange={(instructions) => set({ instructions })}
        testId="intent-instructions"
      />
    </div>
  );
}
