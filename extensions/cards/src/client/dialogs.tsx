// The builder's dialogs: publish a version, generate a card from a description (the model's writing shown as it
// comes), keep the card as a template.
import { describeError } from '@tessera/sdk';
import { Button, Input, Modal, Progress, Space, Typography } from '@arco-design/web-react';
import { useMutation } from '@tanstack/react-query';
import { type ApiError, toast, useApi, testId } from '@tessera/sdk/client';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardDsl, CardSuggestions, PublishCard, SaveTemplate, type CardInfo } from '../shared/index.ts';

export function PublishModal({
  cardId,
  onClose,
  onDone,
}: {
  cardId: string;
  onClose(): void;
  onDone(card: CardInfo): void;
}) {
  const { t } = useTranslation('cards');
  const api = useApi();
  const [description, setDescription] = useState('');
  const publish = useMutation({
    mutationFn: () => api.call(PublishCard, { card_id: cardId, description }),
    onSuccess: (r) => {
      toast.success(t('published', { version: r.card.version_num }));
      onDone(r.card);
      onClose();
    },
  });
  return (
    <Modal
      visible
      title={t('publish')}
      onCancel={onClose}
      onOk={() => publish.mutate()}
      confirmLoading={publish.isPending}
      okButtonProps={{ ...testId('card-publish-save') }}
    >
      <Typography.Paragraph type="secondary">{t('publishHint')}</Typography.Paragraph>
      <Typography.Text>{t('whatChanged')}</Typography.Text>
      <Input.TextArea
        value={description}
        onChange={setDescription}
        maxLength={2000}
        autoSize={{ minRows: 2, maxRows: 4 }}
        data-testid="card-publish-description"
      />
    </Modal>
  );
}

export function GenerateModal({
  spaceId,
  target,
  onClose,
  onDone,
}: {
  spaceId: string;
  /** What the card is bound to: ideas fit its output. */
  target?: { biz_type: number; biz_id: string };
  onClose(): void;
  onDone(dsl: CardDsl): void;
}) {
  const { t } = useTranslation('cards');
  const api = useApi();
  const [description, setDescription] = useState('');
  const ideas = useMutation({
    mutationFn: () =>
      api.call(CardSuggestions, {
        space_id: spaceId,
        ...(target ? { biz_type: target.biz_type as 1 | 2, biz_id: target.biz_id } : {}),
      }),
  });
  const [written, setWritten] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const stop = useRef<AbortController | null>(null);
  const generate = async () => {
    setBusy(true);
    setWritten('');
    setProblem('');
    stop.current = new AbortController();
    let dsl: CardDsl | undefined;
    try {
      await api.stream(
        '/api/card_builder/generate_card_stream',
        { space_id: spaceId, description: description.trim() },
        (e) => {
          const data = JSON.parse(e.data) as { text?: string; dsl?: unknown; msg?: string };
          if (e.event === 'delta') setWritten((w) => w + (data.text ?? ''));
          else if (e.event === 'done') dsl = CardDsl.parse(data.dsl);
          else if (e.event === 'error') setProblem(data.msg ?? t('generateFailed'));
        },
        { signal: stop.current.signal, handled: (err: ApiError) => (setProblem(err.msg), true) },
      );
      if (dsl) {
        onDone(dsl);
        toast.success(t('generated'));
        onClose();
      }
    } catch (e) {
      if (!(e instanceof Error && e.name === 'AbortError')) setProblem(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      visible
      title={t('generate')}
      onCancel={() => (stop.current?.abort(), onClose())}
      onOk={() => void generate()}
      confirmLoading={busy}
      okText={t('generateGo')}
      okButtonProps={{ disabled: !description.trim(), ...testId('card-generate-go') }}
    >
      <Typography.Paragraph type="secondary">{t('generateHint')}</Typography.Paragraph>
      <Input.TextArea
        value={description}
        onChange={setDescription}
        maxLength={4000}
        autoSize={{ minRows: 3, maxRows: 8 }}
        placeholder={t('generatePlaceholder')}
        data-testid="card-generate-description"
      />
      <Space wrap size={4} style={{ marginTop: 8 }}>
        <Button size="mini" onClick={() => ideas.mutate()} loading={ideas.isPending} data-testid="card-ideas">
          {t('ideas')}
        </Button>
        {ideas.data?.suggestions.map((idea) => (
          <Button key={idea} size="mini" shape="round" onClick={() => setDescription(idea)} data-testid="card-idea">
            {idea}
          </Button>
        ))}
      </Space>
      {busy && (
        <div data-testid="card-generate-progress" style={{ marginTop: 12 }}>
          <Progress percent={Math.min(95, Math.round(written.length / 20))} size="small" />
          <pre style={{ maxHeight: 160, overflow: 'auto', fontSize: 11 }}>{written}</pre>
        </div>
      )}
      {problem && (
        <Typography.Text type="error" data-testid="card-generate-problem">
          {problem}
        </Typography.Text>
      )}
    </Modal>
  );
}

export function TemplateModal({ spaceId, dsl, onClose }: { spaceId: string; dsl: CardDsl; onClose(): void }) {
  const { t } = useTranslation('cards');
  const api = useApi();
  const [name, setName] = useState('');
  const save = useMutation({
    mutationFn: () => api.call(SaveTemplate, { space_id: spaceId, name: name.trim(), dsl }),
    onSuccess: () => {
      toast.success(t('templateSaved'));
      onClose();
    },
  });
  return (
    <Modal
      visible
      title={t('saveTemplate')}
      onCancel={onClose}
      onOk={() => save.mutate()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('card-template-save') }}
    >
      <Typography.Text>{t('name')}</Typography.Text>
      <Input value={name} onChange={setName} maxLength={100} data-testid="card-template-name" />
    </Modal>
  );
}
