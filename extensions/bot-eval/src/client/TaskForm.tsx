// A batch task's form: its name, the bot (published to the API to be asked), the scene and the judge's model, the test
// questions (one a line, "question | expected answer"; or written by a model), and the judge template (each dimension's
// instructions, rewritten by a model on request). Saved as a draft, or saved and run.
import { messageOf } from '@tessera/sdk';
import { Alert, Button, Input, InputNumber, Select, Space, Typography } from '@arco-design/web-react';
import { ModelSelect } from '@tessera/ext-models/client';
import { Modal, useStudio } from '@tessera/sdk/client';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchTaskView, DimensionInput, Row } from '../shared/api.ts';
import { useBatchTasks, useSpaceId } from './store.ts';

const toText = (rows: Row[]) =>
  rows.map((r) => (r.reference ? `${r.question} | ${r.reference}` : r.question)).join('\n');
const toRows = (text: string): Row[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [q, ...rest] = l.split('|');
      return { question: q.trim(), reference: rest.join('|').trim() };
    });

export function TaskForm({ task, onClose }: { task?: BatchTaskView; onClose(): void }) {
  const { t } = useTranslation('bot-eval');
  const { language } = useStudio();
  const lang = language === 'zh-CN' ? 'zh-CN' : 'en-US';
  const spaceId = useSpaceId();
  const x = useBatchTasks(spaceId);
  const [name, setName] = useState(task?.name ?? '');
  const [botId, setBotId] = useState(task?.bot_id);
  const [sceneId, setSceneId] = useState(task?.scene_id ?? 'customer_service');
  const [modelId, setModelId] = useState(task?.judge_model_id ?? '');
  const [questions, setQuestions] = useState(task ? toText(task.rows) : '');
  const [dims, setDims] = useState<DimensionInput[]>(task?.dimensions ?? []);
  const [count, setCount] = useState(10);
  const [wish, setWish] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!task || task.scene_id !== sceneId) void x.template(sceneId, lang).then((r) => setDims(r.dimensions));
    // The template follows the scene picked (a task's own is kept until the scene changes).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sceneId]);
  const body = () => ({
    name,
    bot_id: botId!,
    scene_id: sceneId,
    judge_model_id: modelId,
    rows: toRows(questions),
    dimensions: dims,
  });
  const save = async (run: boolean) => {
    const saved = task
      ? await x.update.mutateAsync({ batch_task_id: task.batch_task_id, ...body() })
      : await x.create.mutateAsync(body());
    if (run) await x.submit.mutateAsync(saved.batch_task.batch_task_id);
    onClose();
  };
  const ready = !!name.trim() && !!botId && !!modelId && toRows(questions).length > 0;
  const error = x.create.error ?? x.update.error ?? x.submit.error ?? x.generate.error ?? x.optimize.error;
  const setDim = (i: number, d: Partial<DimensionInput>) => setDims(dims.map((v, j) => (j === i ? { ...v, ...d } : v)));
  return (
    <Modal
      visible
      size="xlarge"
      title={task ? t('edit') : t('new')}
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button
            disabled={!ready}
            loading={x.create.isPending || x.update.isPending}
            onClick={() => void save(false).catch(() => undefined)}
            data-testid="bot-eval-save"
          >
            {t('saveDraft')}
          </Button>
          <Button
            type="primary"
            disabled={!ready}
            loading={x.submit.isPending}
            onClick={() => void save(true).catch(() => undefined)}
            data-testid="bot-eval-run"
          >
            {t('saveRun')}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size={10}>
        <Space wrap>
          <Input
            value={name}
            onChange={setName}
            placeholder={t('name')}
            style={{ width: 240 }}
            data-testid="bot-eval-name"
          />
          <Select
            value={botId}
            onChange={setBotId}
            placeholder={t('bot')}
            style={{ width: 240 }}
            data-testid="bot-eval-bot"
          >
            {(x.bots.data ?? []).map((b) => (
              <Select.Option key={b.bot_id} value={b.bot_id} disabled={!b.published}>
                {b.published ? b.name : t('unpublished', { name: b.name })}
              </Select.Option>
            ))}
          </Select>
          <Select value={sceneId} onChange={setSceneId} style={{ width: 220 }} data-testid="bot-eval-scene">
            {(x.scenes.data ?? []).map((s) => (
              <Select.Option key={s.scene_id} value={s.scene_id}>
                {s.name[lang]}
              </Select.Option>
            ))}
          </Select>
          <span data-testid="bot-eval-model">
            <ModelSelect spaceId={spaceId} value={modelId} onChange={setModelId} style={{ width: 220 }} />
          </span>
        </Space>
        <Typography.Text type="secondary">
          {x.scenes.data?.find((s) => s.scene_id === sceneId)?.description[lang]}
        </Typography.Text>
        <div>
          <Space style={{ marginBottom: 4 }}>
            <b>{t('questions')}</b>
            <span style={{ fontSize: 12 }}>{t('questionsHint')}</span>
          </Space>
          <Input.TextArea
            value={questions}
            onChange={setQuestions}
            autoSize={{ minRows: 4, maxRows: 12 }}
            data-testid="bot-eval-questions"
          />
          <Space style={{ marginTop: 4 }}>
            <InputNumber value={count} min={1} max={50} onChange={(v) => setCount(v ?? 10)} style={{ width: 120 }} />
            <Button
              disabled={!botId || !modelId}
              loading={x.generate.isPending}
              onClick={() =>
                x.generate.mutate(
                  { bot_id: botId!, scene_id: sceneId, model_id: modelId, count },
                  { onSuccess: (r) => setQuestions([questions.trim(), toText(r.rows)].filter(Boolean).join('\n')) },
                )
              }
              data-testid="bot-eval-generate"
            >
              {t('generate')}
            </Button>
            <span>{t('rowsCount', { n: toRows(questions).length })}</span>
          </Space>
        </div>
        <div>
          <b>{t('template')}</b>
          {dims.map((d, i) => (
            <div key={d.key} style={{ marginTop: 6 }} data-testid="bot-eval-dimension">
              <Input value={d.name} onChange={(v) => setDim(i, { name: v })} style={{ width: 240, marginBottom: 4 }} />
              <Input.TextArea
                value={d.prompt}
                onChange={(v) => setDim(i, { prompt: v })}
                autoSize={{ minRows: 2, maxRows: 8 }}
              />
              <Space style={{ marginTop: 4 }}>
                <Input
                  value={wish[d.key] ?? ''}
                  onChange={(v) => setWish({ ...wish, [d.key]: v })}
                  placeholder={t('wish')}
                  style={{ width: 320 }}
                />
                <Button
                  size="small"
                  disabled={!modelId || !wish[d.key]?.trim()}
                  loading={x.optimize.isPending}
                  onClick={() =>
                    x.optimize.mutate(
                      { model_id: modelId, prompt: d.prompt, instruction: wish[d.key] },
                      { onSuccess: (r) => setDim(i, { prompt: r.prompt }) },
                    )
                  }
                >
                  {t('rewrite')}
                </Button>
              </Space>
            </div>
          ))}
        </div>
        {error && <Alert type="error" content={messageOf(error)} data-testid="bot-eval-error" />}
      </Space>
    </Modal>
  );
}
