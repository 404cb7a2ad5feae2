// A bot as the routes answer it: its configuration and details, what a studio can make of bots.
import type { Language } from '@tessera/sdk';

export interface BotConfig {
  mode: string;
  settings: Record<string, unknown>;
  skills: Record<string, unknown>;
  onboarding: { prologue: string; suggested_questions: string[] };
  suggest_reply: { mode: 'off' | 'default' | 'custom'; prompt: string };
  shortcuts: { id: string; command: string; name: string; description: string; query_template: string }[];
}

export interface BotInfo {
  bot_id: string;
  space_id: string;
  name: string;
  description: string;
  icon_uri: string;
  mode: string;
  creator_id: string;
  revision: number;
  has_unpublished_changes: boolean;
  latest_version: string | null;
  published_at: number | null;
  create_time: number;
  update_time: number;
  config: BotConfig;
  problems: string[];
}

export type BotListItem = Omit<BotInfo, 'config' | 'problems'>;

export interface Capabilities {
  modes: { key: string; code: number; label: Record<Language, string> }[];
  skills: { key: string; label: Record<Language, string> }[];
  /** Where a bot is published; `settings_schema` (JSON Schema) describes what a publication to it takes. */
  connectors: {
    id: string;
    name: Record<Language, string>;
    description?: Record<Language, string>;
    settings_schema?: {
      properties?: Record<string, { type?: string; description?: string; items?: { type?: string } }>;
    };
  }[];
}
