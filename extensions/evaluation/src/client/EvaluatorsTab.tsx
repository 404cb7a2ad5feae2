// Evaluators: create an LLM judge (from a built-in template or your own prompt, a model, a score range) or a code
// evaluator; try it on a sample before saving.
import {
  Button,
  Empty,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { IconPlus } from '@arco-design/web-react/icon';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Modal, useApi, type ApiError, testId } from '@tessera/sdk/client';
import { ModelSelect } from '@tessera/ext-models/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Evaluator } from './api.ts';
import {
  NewEvaluator,
  DebugEvaluator,
  EvaluatorTemplatesList,
  ListEvaluators,
  SubmitEvaluatorVersion,
} from '../shared/api.ts';

export function EvaluatorsTab({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation('evaluation');
  const api = useApi();
  const q = useQuery({
    queryKey: ['evaluation', 'evaluators', spaceId],
    queryFn: () => api.call(ListEvaluators, { space_id: spaceId }),
  });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Evaluator>();
  return (
    <div data-testid="eval-evaluators">
      <Button
        type="primary"
        icon={<IconPlus />}
        onClick={() => setCreating(true)}
        style={{ marginBottom: 12 }}
        data-testid="eval-evaluator-create"
      >
        {t('evaluators.create')}
      </Button>
      <Table<Evaluator>
        rowKey="evaluator_id"
        loading={q.isLoading}
        data={q.data?.evaluators ?? []}
        pagination={false}
        noDataElement={<Empty description={t('evaluators.empty')} />}
        columns={[
          {
            title: t('name'),
            dataIndex: 'name',
            render: (v: string) => <span data-testid="eval-evaluator-row">{v}</span>,
          },
          {
            title: t('evaluators.kind'),
            dataIndex: 'kind',
            width: 160,
            render: (v: string) => <Tag>{t(`kinds.${v}`, { defaultValue: v })}</Tag>,
          },
          { title: t('sets.version'), dataIndex: 'latest_version', width: 120 },
          {
            title: '',
            width: 140,
            render: (_: unknown, e) => (
              <Button size="mini" onClick={() => setEditing(e)} data-testid="eval-evaluator-edit">
                {t('evaluators.newVersion')}
              </Button>
            ),
          },
        ]}
      />
      {creating && <CreateEvaluator spaceId={spaceId} onClose={() => setCreating(false)} />}
      {editing && <CreateEvaluator spaceId={spaceId} editing={editing} onClose={() => setEditing(undefined)} />}
    </div>
  );
}

function CreateEvaluator({
  spaceId,
  onClose,
  editing,
}: {
  spaceId: string;
  onClose(): void;
  /** Saving makes a new version of this one. */ editing?: Evaluator;
}) {
  const { t, i18n } = useTranslation('evaluation');
  const api = useApi();
  const qc = useQueryClient();
  const templates = useQuery({
    queryKey: ['evaluation', 'templates'],
    queryFn: () => api.call(EvaluatorTemplatesList, undefined),
  });
  const was = (editing?.settings ?? {}) as {
    prompt?: string;
    model_id?: string;
    score_min?: number;
    score_max?: number;
    code?: string;
  };
  const [name, setName] = useState(editing?.name ?? '');
  const [kind, setKind] = useState<'llm_judge' | 'code'>((editing?.kind as 'llm_judge' | 'code') ?? 'llm_judge');
  const [prompt, setPrompt] = useState(was.prompt ?? '');
  const [modelId, setModelId] = useState<string | undefined>(was.model_id);
  const [range, setRange] = useState<[number, number]>([was.score_min ?? 0, was.score_max ?? 1]);
  const [code, setCode] = useState(
    was.code ??
      'function main({ params }) {\n  // params: input, output, reference, item\n  return { score: params.output === params.reference ? 1 : 0, reason: "exact match" };\n}',
  );
  const [sample, setSample] = useState({ input: '', output: '', reference: '' });
  const [tried, setTried] = useState<{ score: number; reason: string }>();
  const [problem, setProblem] = useState('');
  const settings =
    kind === 'llm_judge'
      ? { prompt, model_id: modelId ?? '', score_min: range[0], score_max: range[1] }
      : { language: 'javascript', code };
  const handled = (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false);
  const debug = useMutation({
    mutationFn: () => api.call(DebugEvaluator, { space_id: spaceId, kind, settings, ...sample }, { handled }),
    onSuccess: (r) => (setTried(r), setProblem('')),
  });
  const create = useMutation({
    mutationFn: () =>
      editing
        ? api.call(
            SubmitEvaluatorVersion,
            { space_id: spaceId, evaluator_id: editing.evaluator_id, settings },
            { handled },
          )
        : api.call(NewEvaluator, { space_id: spaceId, name: name.trim(), kind, settings }, { handled }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['evaluation', 'evaluators'] });
      onClose();
    },
  });
  return (
    <Modal
      visible
      size="large"
      title={editing ? t('evaluators.newVersionOf', { name: editing.name }) : t('evaluators.create')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('eval-evaluator-save') }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input
          placeholder={t('name')}
          value={name}
          onChange={setName}
          disabled={!!editing}
          data-testid="eval-evaluator-name"
        />
        <Radio.Group type="button" value={kind} onChange={setKind} disabled={!!editing}>
          <Radio value="llm_judge">{t('kinds.llm_judge')}</Radio>
          <Radio value="code" data-testid="eval-kind-code">
            {t('kinds.code')}
          </Radio>
        </Radio.Group>
        {kind === 'llm_judge' ? (
          <>
            <Select
              placeholder={t('evaluators.template')}
              onChange={(k) => setPrompt(templates.data?.templates.find((x) => x.key === k)?.prompt ?? '')}
              data-testid="eval-evaluator-template"
            >
              {(templates.data?.templates ?? []).map((x) => (
                <Select.Option key={x.key} value={x.key}>
                  {x.name[i18n.language] ?? x.name['en-US']}
                </Select.Option>
              ))}
            </Select>
            <Input.TextArea
              value={prompt}
              onChange={setPrompt}
              autoSize={{ minRows: 4, maxRows: 12 }}
              placeholder={t('evaluators.promptHint')}
              data-testid="eval-evaluator-prompt"
            />
            <Space>
              <ModelSelect spaceId={spaceId} value={modelId} onChange={setModelId} style={{ width: 260 }} />
              <InputNumber
                size="small"
                prefix={t('evaluators.min')}
                value={range[0]}
                onChange={(v) => setRange([v ?? 0, range[1]])}
                style={{ width: 120 }}
              />
              <InputNumber
                size="small"
                prefix={t('evaluators.max')}
                value={range[1]}
                onChange={(v) => setRange([range[0], v ?? 1])}
                style={{ width: 120 }}
              />
            </Space>
          </>
        ) : (
          <Input.TextArea
            value={code}
            onChange={setCode}
            autoSize={{ minRows: 6, maxRows: 16 }}
            style={{ fontFamily: 'monospace', fontSize: 12 }}
            data-testid="eval-evaluator-code"
          />
        )}
        <Typography.Text bold>{t('evaluators.try')}</Typography.Text>
        <Space wrap>
          {(['input', 'output', 'reference'] as const).map((k) => (
            <Input
              key={k}
              size="small"
              placeholder={t(`evaluators.${k}`)}
              value={sample[k]}
              onChange={(v) => setSample({ ...sample, [k]: v })}
              style={{ width: 220 }}
              data-testid={`eval-try-${k}`}
            />
          ))}
          <Button size="small" onClick={() => debug.mutate()} loading={debug.isPending} data-testid="eval-try">
            {t('evaluators.run')}
          </Button>
        </Space>
        {tried && (
          <Typography.Text data-testid="eval-try-result">
            {t('evaluators.scoreIs', { score: tried.score })} {tried.reason && `— ${tried.reason}`}
          </Typography.Text>
        )}
        {problem && <Typography.Text type="error">{problem}</Typography.Text>}
      </Space>
    </Modal>
  );
}
