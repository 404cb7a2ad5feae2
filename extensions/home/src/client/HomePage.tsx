import { Card, Empty, Grid, Typography } from '@arco-design/web-react';
import { SidebarEntries, useRegistryEntries, useStudio } from '@tessera/sdk/client';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function HomePage() {
  const { t } = useTranslation('home');
  const { platformName } = useStudio();
  const entries = useRegistryEntries(SidebarEntries).filter((e) => e.value.path !== '/');
  return (
    <div className="tessera-page" data-testid="home-page">
      <Typography.Title heading={3}>{t('welcome', { platform: platformName })}</Typography.Title>
      <Typography.Paragraph>{t('intro')}</Typography.Paragraph>
      <Typography.Title heading={5}>{t('areas')}</Typography.Title>
      {entries.length === 0 ? (
        <Empty description={t('noAreas')} />
      ) : (
        <Grid.Row gutter={[16, 16]}>
          {entries.map((e) => (
            <Grid.Col key={e.key} xs={24} sm={12} md={8}>
              <Link to={e.value.path} data-testid={`home-card-${e.key}`}>
                <Card hoverable>
                  <EntryLabel owner={e.owner} label={e.value.label} />
                </Card>
              </Link>
            </Grid.Col>
          ))}
        </Grid.Row>
      )}
    </div>
  );
}

function EntryLabel({ owner, label }: { owner: string; label: string }) {
  const { t } = useTranslation(owner);
  return <>{t(label)}</>;
}
