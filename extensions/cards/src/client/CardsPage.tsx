// The cards of the space: each with its thumbnail and whether it is published; make one, empty or from a template.
import { Button, Empty, Input, Modal, Radio, Spin, Tag, Typography } from '@arco-design/web-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  type ApiError,
  PageHeading,
  SearchInput,
  toast,
  useApi,
  useCreateDialog,
  usePageTitle,
  testId,
} from '@tessera/sdk/client';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CreateCard, ListCards, ListTemplates } from '../shared/index.ts';
import './cards.css';
import { useSpaceId } from './space.ts';

export function CardsPage() {
  const { t } = useTranslation('cards');
  usePageTitle(t('title'));
  const spaceId = useSpaceId();
  const api = useApi();
  const [name, setName] = useState('');
  const create = useCreateDialog();
  const list = useQuery({
    queryKey: ['cards', 'list', spaceId, name],
    enabled: !!spaceId,
    queryFn: () => api.call(ListCards, { space_id: spaceId, name: name || undefined }),
  });
  if (!spaceId) return <Typography.Paragraph>{t('noSpace')}</Typography.Paragraph>;
  return (
    <div data-testid="cards-page">
      <PageHeading
        title={t('title')}
        intro={t('intro')}
        action={
          <Button type="primary" onClick={create.show} data-testid="card-create">
            {t('create')}
          </Button>
        }
      />
      <div style={{ marginBottom: 12 }}>
        <SearchInput placeholder={t('search')} onSearch={setName} />
      </div>
      {list.isPending ? (
        <Spin />
      ) : !list.data?.cards.length ? (
        <Empty description={name ? t('noMatch') : t('empty')} />
      ) : (
        <div className="tessera-cards-grid">
          {list.data.cards.map((c) => (
            <Link key={c.card_id} to={`/cards/${c.card_id}`} className="tessera-cards-tile" data-testid="card-tile">
              <img src={c.thumbnail} alt="" className="tessera-cards-thumb" data-testid="card-thumbnail" />
              <div className="tessera-cards-tile-name">
                <Typography.Text bold ellipsis>
                  {c.name}
                </Typography.Text>
                {c.version_num > 0 ? (
                  <Tag color="green" size="small">
                    v{c.version_num}
                  </Tag>
                ) : (
                  <Tag size="small">{t('draft')}</Tag>
                )}
              </div>
            </Link>
          ))}
        </div>
      )}
      {create.open && <CreateModal spaceId={spaceId} onClose={create.close} />}
    </div>
  );
}

function CreateModal({ spaceId, onClose }: { spaceId: string; onClose(): void }) {
  const { t } = useTranslation('cards');
  const api = useApi();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('');
  const [problem, setProblem] = useState('');
  const templates = useQuery({
    queryKey: ['cards', 'templates', spaceId],
    queryFn: () => api.call(ListTemplates, { space_id: spaceId }),
  });
  const create = useMutation({
    mutationFn: () =>
      api.call(
        CreateCard,
        { space_id: spaceId, name: name.trim(), template_id: template || undefined },
        { handled: (e: ApiError) => (e.status === 400 ? (setProblem(e.msg), true) : false) },
      ),
    onSuccess: (r) => {
      toast.success(t('created'));
      onClose();
      void navigate(`/cards/${r.card.card_id}`);
    },
  });
  return (
    <Modal
      visible
      title={t('create')}
      onCancel={onClose}
      onOk={() => create.mutate()}
      confirmLoading={create.isPending}
      okButtonProps={{ disabled: !name.trim(), ...testId('card-create-save') }}
    >
      <Typography.Text>{t('name')}</Typography.Text>
      <Input
        value={name}
        onChange={(v) => (setName(v), setProblem(''))}
        maxLength={100}
        status={problem ? 'error' : undefined}
        data-testid="card-name"
        style={{ margin: '4px 0 12px' }}
      />
      {problem && <Typography.Text type="error">{problem}</Typography.Text>}
      <Typography.Text>{t('startFrom')}</Typography.Text>
      <Radio.Group
        value={template}
        onChange={setTemplate}
        direction="vertical"
        style={{ display: 'block', marginTop: 4 }}
        data-testid="card-templates"
      >
        <Radio value="">{t('blank')}</Radio>
        {templates.data?.templates.map((x) => (
          <Radio key={x.template_id} value={x.template_id} data-testid="card-template">
            {x.name}
          </Radio>
        ))}
      </Radio.Group>
    </Modal>
  );
}
