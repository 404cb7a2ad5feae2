// The bot editor's skill panels as a contract point: each skill's extension registers its panel (drawn in the bot
// editor, and wherever else a skill's settings are chosen: the agent workspace's tools). Client-side registrations;
// the token lives in the contract so that extensions for which bots is optional may read it.
import { defineRegistryPoint } from '@tessera/sdk';
import type { ComponentType } from 'react';
import { z } from 'zod';

const component = z.custom<ComponentType<any>>(
  (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
  'must be a React component',
);

export interface BotSkillPanelProps<S = any> {
  value: S;
  onChange(next: S): void;
  spaceId: string;
  /** The bot being edited ('' where the settings are not a bot's: an agent workspace task's tools). */
  botId: string;
}

/** A skill's panel in the bot editor's skills column; without its extension the panel and its tools are gone. */
export interface BotSkillPanel {
  /** The key of the skill (its `BotSkills` entry on the server). */
  key: string;
  /** Translation key (in the owner's namespace). */
  label: string;
  /** Translation key of a line saying what the skill gives the bot. */
  description?: string;
  order?: number;
  /** The skill's settings when it is first turned on. */
  empty(): unknown;
  /** How many things the skill holds (shown on the collapsed panel), from its settings. */
  count?(value: any): number;
  Panel: ComponentType<BotSkillPanelProps>;
}

export const BotSkillPanels = defineRegistryPoint<BotSkillPanel>({
  id: 'bots.skillPanels',
  owner: 'bots',
  description: "Panels of the bot editor's skills column, one per skill kind.",
  schema: z.object({ key: z.string().min(1), label: z.string().min(1), Panel: component }),
  key: (s) => s.key,
});
