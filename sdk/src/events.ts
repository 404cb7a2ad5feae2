import { defineEvent } from '@tessera/core';

/** Raised by the request client for the special envelope codes (no toast is shown for them). */
export const Unauthorized = defineEvent<{ url: string; logId: string }>(
  'api.unauthorized',
  'A call answered with the unauthorized code.',
);
export const NoAccess = defineEvent<{ url: string; logId: string }>(
  'api.noAccess',
  'A call was refused for lack of access.',
);
export const CountryRestricted = defineEvent<{ url: string; logId: string }>(
  'api.countryRestricted',
  'A call answered with the country-restricted code.',
);
export const TokenInsufficient = defineEvent<{ url: string; logId: string; code: number }>(
  'api.tokenInsufficient',
  'A call answered with a token-insufficient code.',
);
/**
 * Every extension has started (server). An extension that names something another extension contributes (a
 * store picked by configuration, registered by an extension that requires this one and so starts after it)
 * checks it here rather than in its own start.
 */
export const StudioStarted = defineEvent<{ extensions: string[] }>(
  'host.started',
  'Every extension of the studio has started.',
);

/** One span of something the studio ran (a workflow run, a node, a model call, an HTTP call ...). */
export interface StudioSpan {
  trace_id: string;
  span_id: string;
  parent_span_id?: string | null;
  name: string;
  /** workflow, node, llm, http, code, tool, chat ... */
  kind: string;
  start_ms: number;
  end_ms: number;
  status: 'ok' | 'error';
  status_message?: string;
  /** Following the OpenTelemetry GenAI conventions where they apply (gen_ai.request.model, gen_ai.usage.input_tokens ...). */
  attributes: Record<string, unknown>;
  /** Events in the span, e.g. gen_ai.content.prompt and gen_ai.content.completion with the prompt and the completion. */
  events?: { name: string; time_ms: number; attributes: Record<string, unknown> }[];
}

/**
 * A model call's prompt and completion as the GenAI conventions' events (gen_ai.content.prompt at its start,
 * gen_ai.content.completion at its end), taken out of its attributes.
 */
export function genAiEvents(
  attributes: Record<string, unknown>,
  start_ms: number,
  end_ms: number,
): StudioSpan['events'] {
  const events: NonNullable<StudioSpan['events']> = [];
  if (attributes['gen_ai.prompt'] !== undefined) {
    events.push({
      name: 'gen_ai.content.prompt',
      time_ms: start_ms,
      attributes: { 'gen_ai.prompt': attributes['gen_ai.prompt'] },
    });
    delete attributes['gen_ai.prompt'];
  }
  if (attributes['gen_ai.completion'] !== undefined) {
    events.push({
      name: 'gen_ai.content.completion',
      time_ms: end_ms,
      attributes: { 'gen_ai.completion': attributes['gen_ai.completion'] },
    });
    delete attributes['gen_ai.completion'];
  }
  return events;
}

/**
 * Spans of something the studio ran, emitted when it ends (a workflow run ...), for whoever keeps traces (the
 * observability extension). `source` says who ran it (workflow, bot ...).
 */
export const SpansRecorded = defineEvent<{ space_id: string; source: string; spans: StudioSpan[] }>(
  'telemetry.spans',
  'Spans of something the studio ran, when it ended.',
);
