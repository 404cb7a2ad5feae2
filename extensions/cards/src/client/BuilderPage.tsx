// The card builder: the DSL and its sample data on the left, the card as a chat shows it on the right of them (live),
// where it is bound beside; the draft saves itself; publish, versions, templates and generation by a chat model.
import { describeError } from '@tessera/sdk';
import { Alert, Button, Drawer, Empty, Input, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { EndpointOutput } from '@tessera/sdk';
import { PageHeader, toast, useApi, usePageTitle } from '@tessera/sdk/client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CardDetail, CardDsl, CardHistory, problemOf, UpdateCard, renderCard, type CardNode } from '../shared/index.ts';
import { BindPanel } from './BindPanel.tsx';
import { CardView } from './CardView.tsx';
import { GenerateModal, PublishModal, TemplateModal } from './dialogs.tsx';
import './cards.css';

const SAVE_AFTER_MS = 700;
type Save = 'saved' | 'pending' | 'saving' | 'failed' | 'invalid';

/** What each "add" button appends to the card. */
const SNIPPETS: Record<string, CardNode> = {
  text: { type: 'text', text: 'Text with {{variable}}' },
  image: { type: 'image', url: 'https://example.com/picture.png', alt: '' },
  button: { type: 'button', label: 'Ask more', action: { type: 'message', text: 'Tell me more' } },
  list: { type: 'list', items: '{{items}}', children: [{ type: 'text', text: '{{item.name}}' }] },
  table: { type: 'table', rows: '{{rows}}', columns: [{ title: 'Name', value: '{{item.name}}' }] },
  row: { type: 'row', children: [] },
  divider: { type: 'divider' },
};

export function BuilderPage() {
  const { card_id: id = '' } = useParams();
  const api = useApi();
  const { t } = useTranslation('cards');
  const q = useQuery({ queryKey: ['cards', 'detail', id], queryFn: () => api.call(CardDetail, { card_id: id }) });
  usePageTitle(q.data?.card.name ?? t('title'));
  if (q.isError) return <Empty description={t('missing')} />;
  if (!q.data) return <Spin style={{ margin: 40 }} />;
  return <Builder key={id} detail={q.data} />;
}

type Detail = EndpointOutput<typeof CardDetail>;

const split = (dsl: CardDsl) => {
  const { sample, ...rest } = dsl;
  return { dsl: JSON.stringify(rest, null, 2), sample: JSON.stringify(sample ?? {}, null, 2) };
};

function Builder({ detail }: { detail: Detail }) {
  const { t } = useTranslation('cards');
  const api = useApi();
  const qc = useQueryClient();
  const cardId = detail.card.card_id;
  const spaceId = detail.card.space_id;
  const first = split(detail.dsl);
  const [dslText, setDslText] = useState(first.dsl);
  const [sampleText, setSampleText] = useState(first.sample);
  const [card, setCard] = useState(detail.card);
  const [save, setSave] = useState<Save>('saved');
  const [dialog, setDialog] = useState<'' | 'publish' | 'generate' | 'template' | 'versions'>('');
  const dirty = useRef(false);

  // The DSL as typed, checked as the server checks it: the preview draws the last good one.
  const parsed = useMemo(() => {
    let raw: unknown;
    let sample: unknown;
    try {
      raw = JSON.parse(dslText);
    } catch (e) {
      return { problem: t('badJson', { msg: describeError(e) }) };
    }
    try {
      sample = JSON.parse(sampleText);
    } catch (e) {
      return { problem: t('badSample', { msg: describeError(e) }) };
    }
    const r = CardDsl.safeParse({ ...(raw as object), sample });
    if (!r.success) return { problem: problemOf(r.error) };
    return { dsl: r.data };
  }, [dslText, sampleText, t]);
  const lastGood = useRef<CardDsl>(detail.dsl);
  if (parsed.dsl) lastGood.current = parsed.dsl;
  const shown = useMemo(() => {
    const d = lastGood.current;
    return renderCard(d, d.sample ?? {}, 5);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [parsed]);

  const edit = (dsl: string, sample: string) => {
    setDslText(dsl);
    setSampleText(sample);
    dirty.current = true;
    setSave('pending');
  };
  useEffect(() => {
    if (save !== 'pending') return;
    if (!parsed.dsl) {
      setSave('invalid');
      return;
    }
    const dsl = parsed.dsl;
    const timer = setTimeout(() => {
      dirty.current = false;
      setSave('saving');
      api
        .call(UpdateCard, { card_id: cardId, dsl }, { handled: () => true })
        .then((r) => {
          setCard(r.card);
          setSave(dirty.current ? 'pending' : 'saved');
          void qc.invalidateQueries({ queryKey: ['cards', 'list'] });
        })
        .catch(() => setSave('failed'));
    }, SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [parsed, save, api, cardId, qc]);
  // Typing again after an invalid DSL tries again.
  useEffect(() => {
    if (save === 'invalid' && parsed.dsl) setSave('pending');
  }, [parsed, save]);

  const add = (kind: string) => {
    if (!parsed.dsl) return;
    const { sample: _s, ...rest } = parsed.dsl;
    edit(JSON.stringify({ ...rest, body: [...rest.body, SNIPPETS[kind]] }, null, 2), sampleText);
  };
  const replace = (dsl: CardDsl) => {
    const s = split(dsl);
    edit(s.dsl, s.sample);
  };
  const rename = (name: string) => {
    if (!name.trim() || name === card.name) return;
    void api.call(UpdateCard, { card_id: cardId, name: name.trim() }).then((r) => setCard(r.card));
  };

  return (
    <div data-testid="card-builder">
      <PageHeader
        back={{ to: '/cards', label: t('back') }}
        title={
          <Input
            defaultValue={card.name}
            onBlur={(e) => rename(e.target.value)}
            maxLength={100}
            style={{ width: 260 }}
            aria-label={t('name')}
            data-testid="card-builder-name"
          />
        }
        extra={
          <>
            {card.version_num > 0 ? (
              <Tag color={card.modified ? 'orange' : 'green'} data-testid="card-status">
                {card.modified ? t('changedSince', { version: card.version_num }) : `v${card.version_num}`}
              </Tag>
            ) : (
              <Tag data-testid="card-status">{t('draft')}</Tag>
            )}
            <Typography.Text type="secondary" data-testid="card-save-state" data-state={save}>
              {t(`save.${save}`)}
            </Typography.Text>
          </>
        }
        actions={
          <Space>
            <Button onClick={() => setDialog('generate')} data-testid="card-generate">
              {t('generate')}
            </Button>
            <Button onClick={() => setDialog('template')} disabled={!parsed.dsl} data-testid="card-save-template">
              {t('saveTemplate')}
            </Button>
            <Button onClick={() => setDialog('versions')} data-testid="card-versions">
              {t('versions')}
            </Button>
            <Button
              type="primary"
              onClick={() => setDialog('publish')}
              disabled={save !== 'saved'}
              data-testid="card-publish"
            >
              {t('publish')}
            </Button>
          </Space>
        }
      />
      <div className="tessera-card-builder">
        <section>
          <Typography.Text bold>{t('elements')}</Typography.Text>
          <Space wrap size={4}>
            {Object.keys(SNIPPETS).map((k) => (
              <Button key={k} size="mini" onClick={() => add(k)} disabled={!parsed.dsl} data-testid={`card-add-${k}`}>
                + {t(`element.${k}`)}
              </Button>
            ))}
          </Space>
          <Input.TextArea
            value={dslText}
            onChange={(v) => edit(v, sampleText)}
            autoSize={{ minRows: 16, maxRows: 40 }}
            spellCheck={false}
            aria-label={t('dsl')}
            data-testid="card-dsl"
          />
          {parsed.problem && <Alert type="error" content={parsed.problem} data-testid="card-problem" />}
        </section>
        <section>
          <Typography.Text bold>{t('preview')}</Typography.Text>
          <div data-testid="card-preview">
            <CardView title={shown.title} body={shown.body} send={(text) => toast.info(t('wouldSend', { text }))} />
          </div>
          <Typography.Text bold>{t('sample')}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('sampleHint')}
          </Typography.Text>
          <Input.TextArea
            value={sampleText}
            onChange={(v) => edit(dslText, v)}
            autoSize={{ minRows: 6, maxRows: 20 }}
            spellCheck={false}
            aria-label={t('sample')}
            data-testid="card-sample"
          />
        </section>
        <section>
          <BindPanel cardId={cardId} spaceId={spaceId} dsl={lastGood.current} binds={detail.binds} />
        </section>
      </div>
      {dialog === 'publish' && (
        <PublishModal
          cardId={cardId}
          onClose={() => setDialog('')}
          onDone={(c) => {
            setCard(c);
            void qc.invalidateQueries({ queryKey: ['cards'] });
          }}
        />
      )}
      {dialog === 'generate' && (
        <GenerateModal spaceId={spaceId} target={detail.binds[0]} onClose={() => setDialog('')} onDone={replace} />
      )}
      {dialog === 'template' && parsed.dsl && (
        <TemplateModal spaceId={spaceId} dsl={parsed.dsl} onClose={() => setDialog('')} />
      )}
      <VersionsDrawer
        cardId={cardId}
        visible={dialog === 'versions'}
        onClose={() => setDialog('')}
        onRestore={(dsl) => (replace(dsl), setDialog(''))}
      />
    </div>
  );
}

function VersionsDrawer({
  cardId,
  visible,
  onClose,
  onRestore,
}: {
  cardId: string;
  visible: boolean;
  onClose(): void;
  onRestore(dsl: CardDsl): void;
}) {
  const { t } = useTranslation('cards');
  const api = useApi();
  const q = useQuery({
    queryKey: ['cards', 'history', cardId],
    enabled: visible,
    queryFn: () => api.call(CardHistory, { card_id: cardId }),
  });
  return (
    <Drawer width={420} title={t('versions')} visible={visible} onCancel={onClose} footer={null}>
      {!q.data ? (
        <Spin />
      ) : !q.data.versions.length ? (
        <Empty description={t('noVersions')} />
      ) : (
        q.data.versions.map((v) => {
          const shown = renderCard(v.dsl, v.dsl.sample ?? {}, 3);
          return (
            <div key={v.version_num} data-testid="card-version" style={{ marginBottom: 16 }}>
              <Space style={{ marginBottom: 6 }}>
                <Tag color="green">v{v.version_num}</Tag>
                <Typography.Text type="secondary">{new Date(v.created_at).toLocaleString()}</Typography.Text>
                <Button size="mini" onClick={() => onRestore(v.dsl)} data-testid="card-version-restore">
                  {t('restore')}
                </Button>
              </Space>
              {v.description && <Typography.Paragraph>{v.description}</Typography.Paragraph>}
              <CardView title={shown.title} body={shown.body} />
            </div>
          );
        })
      )}
    </Drawer>
  );
}
