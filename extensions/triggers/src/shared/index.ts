// @tessera/ext-triggers/shared: the spec's trigger numbers, and the point through which an extension offers a studio
// event that a workflow's trigger can start on (a row added to a table, a document processed ...).
import { defineRegistryPoint, type EventToken } from '@tessera/sdk';
import { z } from 'zod';

/** Trigger type (spec 000). */
export const TriggerType = { CRONJOB: 0, EVENT: 1 } as const;
/** Trigger status: a closed trigger does not fire (it can still be tested). */
export const TriggerStatus = { CLOSE: 0, OPEN: 1 } as const;
/** How a firing's run ended. */
export const TriggerRunResult = { WAITING: 0, SUCCESS: 1, FAILED: 2 } as const;
/** Who set a trigger up and for which environment (spec 000); the studio's editor saves ONLINE triggers. */
export const TriggerSetType = {
  DEBUG_PRESET: 0,
  ONLINE_PRESET: 1,
  DEBUG_USERSET: 2,
  ONLINE_USERSET: 3,
  ONLINE: 4,
} as const;

/**
 * A studio event a trigger can start on. The extension that emits the event offers it (it lists `triggers` as
 * optional and imports this module only): the triggers extension subscribes to it and starts the open triggers of
 * the event's space whose filters match.
 */
export interface TriggerEventSource<T = any> {
  /** The `event_id` a trigger stores: the event's name is a good one ('workflow.run.finished'). */
  key: string;
  label: { 'en-US': string; 'zh-CN': string };
  event: EventToken<T>;
  /** The space the event happened in (a trigger of another space never sees it). */
  spaceOf(payload: T): string | undefined;
  /** What the trigger's mapping reads (and what is passed to Start fields of the same names): plain JSON. */
  data(payload: T): Record<string, unknown>;
  /** Fields of `data` a trigger may require a value of (a run's `workflow_id`, its `status`). */
  filters?: { key: string; label: { 'en-US': string; 'zh-CN': string }; choices?: string[] }[];
}

export const TriggerEventSources = defineRegistryPoint<TriggerEventSource>({
  id: 'triggers.eventSources',
  owner: 'triggers',
  description: 'Studio events a workflow trigger can start on (offered by the extension that emits each).',
  schema: z.object({
    key: z.string().regex(/^[a-z][a-z0-9_.-]*$/),
    label: z.object({ 'en-US': z.string().min(1), 'zh-CN': z.string().min(1) }),
    event: z.object({ name: z.string().min(1) }),
    spaceOf: z.custom<(p: unknown) => string>((v) => typeof v === 'function', 'must be a function'),
    data: z.custom<(p: unknown) => Record<string, unknown>>((v) => typeof v === 'function', 'must be a function'),
  }),
  key: (s) => s.key,
});
