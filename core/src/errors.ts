import { defineHookPoint } from './points.ts';

/** What an error sink receives: where it came from, what it says, and who was responsible. */
export interface ReportedError {
  /** Where the failure happened: 'extension' (lifecycle), 'hook' (a tap), 'request', 'render', 'panel', ... */
  source: string;
  message: string;
  error?: unknown;
  /** The extension responsible, when known. */
  extensionId?: string;
  /** For failed API calls: HTTP status, envelope code and log id. */
  api?: { status: number; code: number; msg: string; logId: string; url?: string };
  /** Extra facts (phase, point id, tap name ...). */
  detail?: Record<string, unknown>;
  timestamp: number;
}

/**
 * Error sinks: every failure the host or an extension reports goes through this hook. Called
 * synchronously whenever an error is reported; a throwing sink is itself skipped (it cannot be
 * reported to the sinks without recursion, so it goes to the console).
 */
export const ErrorSinks = defineHookPoint<[ReportedError], void>({
  id: 'core.errorSinks',
  owner: 'host',
  kind: 'sync',
  description:
    'Receives every reported error (extension lifecycle failures, throwing taps, failed requests, render errors).',
});

export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}
