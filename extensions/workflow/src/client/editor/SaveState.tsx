// How the draft's saving stands (the badge in the toolbar).
import { Tag } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';

export type SaveState = 'saved' | 'dirty' | 'saving' | 'conflict' | 'error';

export function SaveBadge({ state }: { state: SaveState }) {
  const { t } = useTranslation('workflow');
  const color = { saved: 'green', dirty: 'gray', saving: 'arcoblue', conflict: 'orangered', error: 'red' }[state];
  return (
    <Tag color={color} data-testid="save-state" data-state={state}>
      {t(`editor.save.${state}`)}
    </Tag>
  );
}
