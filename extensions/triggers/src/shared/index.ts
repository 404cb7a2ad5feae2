// @tessera/ext-triggers/shared: the spec's trigger numbers. The studio events a trigger can start on are the SDK's
// `StudioEventSources` (each registered by the extension that emits it).

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
