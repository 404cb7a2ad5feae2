// Which mock set answers each plugin API's (or workflow's) calls in a debug scene: a bot's debug chat or a workflow's
// test runs. Every API and workflow of the space that has mock sets is listed (but the workflow itself); "the real
// one" uses none.
import { Empty, Select, Typography } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { useBindings, useMockSets, type ComponentSubject, type MockSetView } from './store.ts';

export function MockBindings({ spaceId, scene, callerId }: { spaceId: string; scene: number; callerId: string }) {
  const { t } = useTranslation('debugger');
  const sets = useMockSets(spaceId).list.data ?? [];
  const b = useBindings(spaceId, scene, callerId);
  const bound = new Map((b.list.data ?? []).map((x) => [x.mockSubject.componentID, x.mockSetID]));
  const byApi = new Map<string, { subject: ComponentSubject; name: string; sets: MockSetView[] }>();
  for (const s of sets) {
    if (s.mockSubject.componentID === callerId) continue;
    const e = byApi.get(s.mockSubject.componentID) ?? { subject: s.mockSubject, name: s.componentName, sets: [] };
    e.sets.push(s);
    byApi.set(s.mockSubject.componentID, e);
  }
  return (
    <div data-testid="mock-bindings">
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        {t(scene === 10003 ? 'bind.introWorkflow' : 'bind.introBot')}
      </Typography.Paragraph>
      {!byApi.size && <Empty description={t('bind.none')} />}
      {[...byApi.values()].map(({ subject, name, sets: options }) => (
        <div
          key={subject.componentID}
          style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 8 }}
          data-testid="mock-binding"
        >
          <span style={{ flex: 1 }}>{name || t('bind.gone', { id: subject.componentID })}</span>
          <Select
            value={bound.get(subject.componentID) ?? '0'}
            onChange={(mockSetID: string) => b.bind.mutate({ subject, mockSetID })}
            style={{ width: 220 }}
            data-testid="mock-binding-select"
          >
            <Select.Option value="0">{t('bind.real')}</Select.Option>
            {options.map((s) => (
              <Select.Option key={s.id} value={s.id}>
                {s.name}
              </Select.Option>
            ))}
          </Select>
        </div>
      ))}
    </div>
  );
}
