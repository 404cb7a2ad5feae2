// "Start from a template" on the home page: a card per starter template with its kind's icon; "Use" creates it in
// the current space (in the language shown) and opens it.
import { Button, Card, Grid, Typography } from '@arco-design/web-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { itemPathOf, ResourceKinds, useApi, useRegistryEntries, useStudio } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListTemplates, UseTemplate } from '../shared/api.ts';
import { useSpaceId } from './space.ts';

export function TemplatesSection() {
  const { t } = useTranslation('templates');
  const { language } = useStudio();
  const api = useApi();
  const navigate = useNavigate();
  const spaceId = useSpaceId();
  const kinds = useRegistryEntries(ResourceKinds);
  const list = useQuery({
    queryKey: ['templates'],
    queryFn: () => api.call(ListTemplates, undefined),
  });
  const use = useMutation({
    mutationFn: (id: string) => api.call(UseTemplate, { space_id: spaceId ?? '', template_id: id }),
    onSuccess: (r) => {
      const kind = kinds.find((k) => k.value.kind === r.kind);
      if (kind && spaceId) void navigate(itemPathOf(kind.value, r.id, spaceId));
    },
  });
  const text = (v: Record<string, string>) => v[language] ?? v['en-US'] ?? '';
  const shown = (list.data?.templates ?? []).filter((x) => kinds.some((k) => k.value.kind === x.kind));
  if (!shown.length || !spaceId) return null;
  return (
    <div data-testid="home-templates">
      <Typography.Title heading={6}>{t('title')}</Typography.Title>
      <Grid.Row gutter={[12, 12]}>
        {shown.map((x) => {
          const kind = kinds.find((k) => k.value.kind === x.kind)!;
          const Icon = kind.value.icon;
          return (
            <Grid.Col key={x.template_id} xs={24} sm={12} lg={8} xxl={6}>
              <Card
                className="tessera-template-card"
                data-testid="home-template"
                data-template={x.template_id}
                style={{ height: '100%' }}
              >
                <div style={{ display: 'flex', gap: 10, alignItems: 'flex-start' }}>
                  {Icon && (
                    <Icon style={{ fontSize: 20, color: 'rgb(var(--primary-6))', flex: 'none', marginTop: 2 }} />
                  )}
                  <div style={{ minWidth: 0, flex: 1 }}>
                    <Typography.Text style={{ fontWeight: 500 }}>{text(x.name)}</Typography.Text>
                    <Typography.Paragraph
                      type="secondary"
                      style={{ fontSize: 12, margin: '4px 0 8px' }}
                      ellipsis={{ rows: 2 }}
                    >
                      {text(x.description)}
                    </Typography.Paragraph>
                    <Button
                      size="small"
                      loading={use.isPending && use.variables === x.template_id}
                      onClick={() => use.mutate(x.template_id)}
                      data-testid={`home-template-use-${x.template_id}`}
                    >
                      {t('use')}
                    </Button>
                  </div>
                </div>
              </Card>
            </Grid.Col>
          );
        })}
      </Grid.Row>
    </div>
  );
}
