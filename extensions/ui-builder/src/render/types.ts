// What a component's view is given, in the published app and in the builder's preview.
import type { UiNode } from '../shared/dsl.ts';
import type { RenderTexts } from './texts.ts';

export interface UiComponentProps {
  node: UiNode;
  /** Renders the node's children (containers). */
  children?: React.ReactNode;
  /** A text with {{variable}} placeholders filled from the app's variables. */
  fill(text: unknown): string;
  /** The app's variables. */
  variables: Record<string, unknown>;
  /** What the person entered into this component, and how to change it (bound to a variable when `bind` says). */
  value: unknown;
  setValue(value: unknown): void;
  /** Fires an event of this component ('click', 'submit'); resolves when its workflow has answered. */
  fire(on: 'click' | 'submit'): Promise<void>;
  /** An event of this component is running. */
  busy: boolean;
  /** Its last run's error, in words. */
  error?: string;
  t: RenderTexts;
  /** A custom component's frame address (custom components only). */
  frameSrc?: string;
  /** A chat component's turn: the question, the conversation to continue; the answer streams into onDelta. */
  chat?(q: {
    query: string;
    conversationId?: string;
    onDelta(t: string): void;
    onConversation(id: string): void;
  }): Promise<void>;
}
