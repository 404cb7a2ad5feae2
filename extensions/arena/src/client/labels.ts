// The arena's configuration (categories, feedback tags) with labels in the reader's language.
import { useStudio } from '@tessera/sdk/client';
import { useConf } from './store.ts';

export function useLabels() {
  const { language } = useStudio();
  const conf = useConf();
  const label = (l: Record<string, string>) => l[language] ?? l['en-US'] ?? '';
  return { conf, label };
}
