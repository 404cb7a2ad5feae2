// The bots extension's client points: what mode and skill extensions add to the bot editor.
// Import from '@tessera/ext-bots/client'.
import { defineRegistryPoint } from '@tessera/sdk';
import { lazyView } from '@tessera/sdk/client';
import type { ComponentType } from 'react';
import { z } from 'zod';
import type { ChatPlace } from '../shared/index.ts';

const component = z.custom<ComponentType<any>>(
  (v) => typeof v === 'function' || (typeof v === 'object' && v !== null),
  'must be a React component',
);

export interface BotModeSettingsProps<S = any> {
  settings: S;
  onChange(next: S): void;
  spaceId: string;
  botId: string;
}

/** A mode's editor: the left column of the bot editor (persona and model for the single agent ...). */
export interface BotModeEditor {
  /** The key of the mode (its `BotModes` entry on the server). */
  key: string;
  /** Translation key (in the owner's namespace) of the mode's name. */
  label: string;
  /** Translation key of a line saying what the mode does. */
  description?: string;
  Settings: ComponentType<BotModeSettingsProps>;
}

export const BotModeEditors = defineRegistryPoint<BotModeEditor>({
  id: 'bots.modeEditors',
  owner: 'bots',
  description: "The bot editor's settings panel of each mode.",
  schema: z.object({ key: z.string().min(1), label: z.string().min(1), Settings: component }),
  key: (m) => m.key,
});

// The skills' panels are a contract point (shared/index.ts): pages of other extensions that have bots as an
// optional dependency (the agent workspace's tool picker) draw them too.
export { BotSkillPanels, type BotSkillPanel, type BotSkillPanelProps } from '../shared/index.ts';

// The chat's place and its composer's buttons are contract points (shared/index.ts): extensions for which bots is
// optional add buttons too (the debugger's mock data of the debug chat).
export {
  ChatComposerActions,
  type ChatComposerAction,
  type ChatComposerActionProps,
  type ChatPlace,
} from '../shared/index.ts';
export interface ChatAnswerActionProps extends ChatPlace {
  messageId: string;
  /** The answer's text. */
  text: string;
  /** The newest answer of the chat, just finished (an action may act on it by itself: read it aloud). */
  fresh: boolean;
}
/** A button beside each answer of a chat (read aloud ...). */
export interface ChatAnswerAction {
  key: string;
  Action: ComponentType<ChatAnswerActionProps>;
}
export const ChatAnswerActions = defineRegistryPoint<ChatAnswerAction>({
  id: 'bots.chatAnswerActions',
  owner: 'bots',
  description: 'Buttons beside each answer of a bot chat (the debug chat and the chat page).',
  schema: z.object({ key: z.string().min(1), Action: component }),
  key: (a) => a.key,
});

export interface ChatMessageViewProps extends ChatPlace {
  /** The message's content (for a card: its JSON; check it, anyone with a token can write one). */
  content: string;
  /** Sends this text as the user's message (a card's button). */
  send(text: string): void;
  /** A message is being answered. */
  disabled: boolean;
}
/** Draws answers of a content type other than text in a chat (a card): by `contentType`. */
export interface ChatMessageView {
  contentType: string;
  View: ComponentType<ChatMessageViewProps>;
}
export const ChatMessageViews = defineRegistryPoint<ChatMessageView>({
  id: 'bots.chatMessageViews',
  owner: 'bots',
  description: "Views of answers that are not text (a card showing a tool's output), by content type.",
  schema: z.object({ contentType: z.string().min(1), View: component }),
  key: (v) => v.contentType,
});

import type { SkillItemsProps } from './SkillItems.tsx';

export type { SkillItemsProps, SkillOption } from './SkillItems.tsx';
// The skill list's code loads with the first panel that draws it (the panels are lazy themselves).
export const SkillItems = lazyView<SkillItemsProps>(() => import('./SkillItems.tsx').then((m) => m.SkillItems));
