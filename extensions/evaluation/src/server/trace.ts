// A target's model call as a trace (one model-call span with the GenAI conventions' attributes and events), so an
// experiment's result opens where it ran.
import { SpansRecorded, genAiEvents } from '@tessera/sdk';
import type { ServerContext } from '@tessera/sdk/server';

export interface ModelCall {
  spaceId: string;
  /** The span's name (`prompt support.reply@1.0.0`, `model fake-chat`). */
  name: string;
  modelName: string;
  messages: unknown;
  output: string;
  usage: { input_tokens: number; output_tokens: number };
  started: number;
  ended: number;
  /** More attributes (the prompt's key and version ...). */
  extra?: Record<string, unknown>;
}

/** Emits the call as a trace; answers its id. */
export function traceModelCall(ctx: ServerContext<unknown>, c: ModelCall): string {
  const traceId = ctx.host.newId();
  const attributes: Record<string, unknown> = {
    'gen_ai.request.model': c.modelName,
    'gen_ai.usage.input_tokens': c.usage.input_tokens,
    'gen_ai.usage.output_tokens': c.usage.output_tokens,
    'gen_ai.prompt': JSON.stringify(c.messages).slice(0, 16_000),
    'gen_ai.completion': c.output.slice(0, 16_000),
    ...c.extra,
  };
  ctx.emit(SpansRecorded, {
    space_id: c.spaceId,
    source: 'evaluation',
    spans: [
      {
        trace_id: traceId,
        span_id: ctx.host.newId(),
        name: c.name,
        kind: 'llm',
        start_ms: c.started,
        end_ms: c.ended,
        status: 'ok',
        attributes,
        events: genAiEvents(attributes, c.started, c.ended),
      },
    ],
  });
  return traceId;
}
