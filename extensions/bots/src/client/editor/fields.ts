// A bot's fields as a person reads them, in their language: where a diff or a merge's conflict is ("Settings › Prompt",
// "设置 › 提示词"); a skill by its panel's name; a list's items by their place; keys without a text as they are.
import { useRegistryEntries, type JsonPath } from '@tessera/sdk/client';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { BotSkillPanels } from '../points.ts';

export function useFieldLabel(): (path: JsonPath) => string {
  const { t, i18n } = useTranslation('bots');
  const panels = useRegistryEntries(BotSkillPanels);
  return useCallback(
    (path: JsonPath) => {
      const parts = path[0] === 'config' ? path.slice(1) : path;
      return parts
        .map((p, i) => {
          if (typeof p === 'number') return `#${p + 1}`;
          const skill = parts[i - 1] === 'skills' ? panels.find((e) => e.value.key === p) : undefined;
          if (skill) return t(skill.value.label, { ns: skill.owner });
          return i18n.exists(`bots:field.${p}`) ? t(`field.${p}`) : p;
        })
        .join(' › ');
    },
    [t, i18n, panels],
  );
}
